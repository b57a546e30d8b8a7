import Foundation

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

    /// Opens the directory.
    ///
    /// - Throws: ``DBAIServerConfigurationError/exportDirectory(_:reason:)`` when it is missing,
    ///   not a directory, or not writable.
    init(_ given: String) throws(DBAIServerConfigurationError) {
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
    }

    deinit {
        close(descriptor)
    }

    /// Why a file name is refused.
    struct Refusal: Error, Sendable, CustomStringConvertible {
        let description: String
    }

    /// Checks a file name before anything runs.
    ///
    /// - Throws: ``Refusal`` for a name that is not a plain file name with the format's extension.
    static func check(_ name: String, extension fileExtension: String) throws(Refusal) {
        guard !name.isEmpty, name.utf8.count <= 200 else {
            throw Refusal(description: "file_name must be a file name of 1 to 200 bytes")
        }
        guard name != ".", name != "..", !name.contains("/"), !name.contains("\\"),
              !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw Refusal(description: "file_name \(name) is not a plain file name: no /, \\, .. or control characters; "
                + "the file is always written in the --export-dir directory")
        }
        guard !name.hasPrefix(".") else {
            throw Refusal(description: "file_name \(name) starts with a dot: give a visible file name")
        }
        guard name.lowercased().hasSuffix("." + fileExtension) else {
            throw Refusal(description: "file_name \(name) must end with .\(fileExtension), the format's extension")
        }
    }

    /// Refuses a name already taken in the directory (a file, a directory or a link), before
    /// anything runs; ``publish(_:as:)`` checks again, atomically.
    ///
    /// - Throws: ``Refusal``.
    func checkFree(_ name: String) throws(Refusal) {
        var status = stat()
        if fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 {
            let kind = (status.st_mode & S_IFMT) == S_IFLNK ? "is a link" : "already exists"
            throw Refusal(description: "\(name) \(kind) in the export directory: choose another file_name")
        }
    }

    /// Publishes a finished export under `name`: copied into a hidden file of its own in the
    /// directory (mode 0600, never following a link), then linked to `name`, which fails rather
    /// than replace anything there; readers never see a partial file under `name`.
    ///
    /// - Throws: ``Refusal`` when the name is taken or the file cannot be written; nothing is
    ///   left in the directory then.
    func publish(_ source: String, as name: String) throws(Refusal) {
        let temporary = ".dbai-export-\(UUID().uuidString.lowercased()).partial"
        let target = openat(descriptor, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard target >= 0 else {
            throw Refusal(description: "the export directory cannot be written: \(String(cString: strerror(errno)))")
        }
        defer { unlinkat(descriptor, temporary, 0) }
        do {
            defer { close(target) }
            try Self.copy(source, to: target)
        }
        guard linkat(descriptor, temporary, descriptor, name, 0) == 0 else {
            let code = errno
            if code == EEXIST { throw Refusal(description: "\(name) already exists in the export directory: choose another file_name") }
            throw Refusal(description: "\(name) cannot be created in the export directory: \(String(cString: strerror(code)))")
        }
    }

    private static func copy(_ source: String, to target: Int32) throws(Refusal) {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw Refusal(description: "the export could not be read back: \(String(cString: strerror(errno)))") }
        defer { close(input) }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            guard count >= 0 else { throw Refusal(description: "the export could not be read back: \(String(cString: strerror(errno)))") }
            if count == 0 { break }
            var offset = 0
            while offset < count {
                let wrote = buffer.withUnsafeBytes { write(target, $0.baseAddress.map { $0 + offset }, count - offset) }
                guard wrote > 0 else {
                    throw Refusal(description: "the export directory cannot be written: \(String(cString: strerror(errno)))")
                }
                offset += wrote
            }
        }
        guard fsync(target) == 0 else {
            throw Refusal(description: "the export directory cannot be written: \(String(cString: strerror(errno)))")
        }
    }
}
