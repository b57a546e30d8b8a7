import Foundation
import SwiftDBAI
import SwiftDBAIPrimitives

/// The directory of `--export-dir`: opened once at start-up, and the only place outside the
/// server's own temporary directory where an export is ever written.
///
/// A file is created relative to the directory's descriptor with `O_CREAT | O_EXCL | O_NOFOLLOW`,
/// so an existing file is never overwritten and a link planted in the directory is never
/// followed; a name is a plain file name (no `/`, no `..`, no leading dot, no control character).
final class ExportDirectory: Sendable {
    /// The directory's real path.
    let path: String
    private let descriptor: Int32
    /// False once the directory refused a hard link (a file system without them), or for tests:
    /// files are then written under their names directly.
    private let linksFiles: Mutex<Bool>

    /// The prefix and suffix of a file being written, hidden until it is complete.
    static let partialPrefix = ".dbai-export-"
    static let partialSuffix = ".partial"
    /// A partial file older than this, and locked by no one, was left by a server that was
    /// killed while writing it: start-up removes it.
    static let abandonedAfter: TimeInterval = 60

    /// Opens the directory and removes the partial files killed servers left in it.
    ///
    /// - Throws: ``DBAIServerConfigurationError/exportDirectory(_:reason:)`` when it is missing,
    ///   not a directory, or not writable.
    init(_ given: String, linksFiles: Bool = true) throws(DBAIServerConfigurationError) {
        self.linksFiles = Mutex(linksFiles)
        guard let resolved = realpath(given, nil) else {
            throw .exportDirectory(given, reason: "it does not exist")
        }
        path = String(cString: resolved)
        free(resolved)
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .exportDirectory(given, reason: "it is not a directory") }
        guard access(path, W_OK | X_OK) == 0 else {
            close(descriptor)
            throw .exportDirectory(given, reason: "the server may not write in it")
        }
        self.descriptor = descriptor
        removeAbandonedPartials()
    }

    deinit {
        close(descriptor)
    }

    /// Why a file was not written: the caller's name (``Kind/invalidName``, ``Kind/nameTaken``),
    /// or the file system (``Kind/failed``: a full disk, a permission).
    struct Refusal: Error, Sendable, CustomStringConvertible {
        enum Kind: Sendable { case invalidName, nameTaken, failed }
        let kind: Kind
        let description: String

        static func failed(_ what: String, _ code: Int32) -> Refusal {
            Refusal(kind: .failed, description: "\(what): \(String(cString: strerror(code)))")
        }
    }

    /// Checks a file name before anything runs.
    ///
    /// - Throws: ``Refusal`` for a name that is not a plain file name with the format's extension.
    static func check(_ name: String, extension fileExtension: String) throws(Refusal) {
        guard !name.isEmpty, name.utf8.count <= 200 else {
            throw Refusal(kind: .invalidName, description: "file_name must be a file name of 1 to 200 bytes")
        }
        guard name != ".", name != "..", !name.contains("/"), !name.contains("\\"),
              !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw Refusal(
                kind: .invalidName,
                description: "file_name \(name) is not a plain file name: no /, \\, .. or control characters; "
                    + "the file is always written in the --export-dir directory")
        }
        guard !name.hasPrefix(".") else {
            throw Refusal(kind: .invalidName, description: "file_name \(name) starts with a dot: give a visible file name")
        }
        guard name.lowercased().hasSuffix("." + fileExtension) else {
            throw Refusal(kind: .invalidName, description: "file_name \(name) must end with .\(fileExtension), the format's extension")
        }
    }

    /// Refuses a name already taken in the directory (a file, a directory or a link), before
    /// anything runs; ``publish(_:as:)`` checks again, atomically.
    ///
    /// - Throws: ``Refusal``.
    func checkFree(_ name: String) throws(Refusal) {
        var status = stat()
        if fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 {
            throw taken(name, isLink: (status.st_mode & S_IFMT) == S_IFLNK)
        }
    }

    /// Publishes a finished export under `name` (mode 0644 less the umask, as files users
    /// create): copied into a hidden, locked file of its own in the directory (never following
    /// a link), then linked to `name`, which fails rather than replace anything there, so that
    /// readers never see a partial file under `name`. On a file system without hard links, the
    /// copy is written under `name` directly, still never replacing anything.
    ///
    /// - Throws: ``Refusal`` when the name is taken or the file cannot be written; nothing is
    ///   left in the directory then.
    func publish(_ source: String, as name: String) throws(Refusal) {
        guard linksFiles.withLock({ $0 }) else { return try publishInPlace(source, as: name) }
        let temporary = "\(Self.partialPrefix)\(UUID().uuidString.lowercased())\(Self.partialSuffix)"
        let target = try create(temporary)
        defer { unlinkat(descriptor, temporary, 0) }
        let linked: Int32
        do {
            defer { close(target) }
            // Held until linked: a server starting meanwhile leaves this file alone.
            _ = flock(target, LOCK_EX | LOCK_NB)
            try Self.copy(source, to: target)
            linked = linkat(descriptor, temporary, descriptor, name, 0) == 0 ? 0 : errno
        }
        if linked == 0 { return }
        if linked == EEXIST { throw taken(name, isLink: false) }
        guard [EPERM, EOPNOTSUPP, ENOTSUP, EMLINK, ENOSYS, EXDEV].contains(linked) else {
            throw .failed("\(name) cannot be created in the export directory", linked)
        }
        // No hard links here: from now on, files are written under their names.
        linksFiles.withLock { $0 = false }
        try publishInPlace(source, as: name)
    }

    /// Without hard links: `name` is created exclusively and the copy written into it; a copy
    /// that fails is removed (a server killed meanwhile leaves the partial file under `name`).
    private func publishInPlace(_ source: String, as name: String) throws(Refusal) {
        let target = try create(name)
        do {
            defer { close(target) }
            try Self.copy(source, to: target)
        } catch {
            unlinkat(descriptor, name, 0)
            throw error
        }
    }

    private func create(_ name: String) throws(Refusal) -> Int32 {
        while true {
            let target = openat(descriptor, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if target >= 0 { return target }
            let code = errno
            if code == EINTR { continue }
            if code == EEXIST || code == ELOOP { throw taken(name, isLink: code == ELOOP) }
            throw .failed("the export directory cannot be written", code)
        }
    }

    private func taken(_ name: String, isLink: Bool) -> Refusal {
        Refusal(
            kind: .nameTaken,
            description: "\(name) \(isLink ? "is a link" : "already exists") in the export directory: choose another file_name")
    }

    private static func copy(_ source: String, to target: Int32) throws(Refusal) {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw .failed("the export could not be read back", errno) }
        defer { close(input) }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .failed("the export could not be read back", errno) }
            if count == 0 { break }
            var offset = 0
            while offset < count {
                let wrote = buffer.withUnsafeBytes { write(target, $0.baseAddress.map { $0 + offset }, count - offset) }
                if wrote < 0, errno == EINTR { continue }
                guard wrote > 0 else { throw .failed("the export directory cannot be written", wrote == 0 ? EIO : errno) }
                offset += wrote
            }
        }
        while fsync(target) != 0 {
            guard errno == EINTR else { throw .failed("the export directory cannot be written", errno) }
        }
    }

    private static func modificationSeconds(_ status: stat) -> Int {
        #if canImport(Darwin)
            Int(status.st_mtimespec.tv_sec)
        #else
            Int(status.st_mtim.tv_sec)
        #endif
    }

    /// Removes the hidden partial files that servers killed while writing left here: only
    /// those older than ``abandonedAfter`` that no process holds locked.
    private func removeAbandonedPartials() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
        let now = Date().timeIntervalSince1970
        for name in names where name.hasPrefix(Self.partialPrefix) && name.hasSuffix(Self.partialSuffix) {
            var status = stat()
            guard fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0, (status.st_mode & S_IFMT) == S_IFREG,
                  now - TimeInterval(Self.modificationSeconds(status)) > Self.abandonedAfter else { continue }
            // Non-blocking: a FIFO swapped in meanwhile must not hang start-up.
            let file = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard file >= 0 else { continue }
            var opened = stat()
            if fstat(file, &opened) == 0, (opened.st_mode & S_IFMT) == S_IFREG, opened.st_ino == status.st_ino,
               flock(file, LOCK_EX | LOCK_NB) == 0 {
                unlinkat(descriptor, name, 0)
            }
            close(file)
        }
    }
}
