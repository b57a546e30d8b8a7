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

    /// Creates a new file in the directory and returns its descriptor.
    ///
    /// - Throws: ``Refusal`` when the name exists (file or link) or cannot be created.
    func create(_ name: String) throws(Refusal) -> Int32 {
        let descriptor = openat(self.descriptor, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            switch code {
            case EEXIST: throw Refusal(description: "\(name) already exists in the export directory: choose another file_name")
            case ELOOP: throw Refusal(description: "\(name) is a link in the export directory: choose another file_name")
            default: throw Refusal(description: "\(name) cannot be created in the export directory: \(String(cString: strerror(code)))")
            }
        }
        return descriptor
    }

    /// Removes a file this server created (after a failed export).
    func remove(_ name: String) {
        unlinkat(descriptor, name, 0)
    }
}
