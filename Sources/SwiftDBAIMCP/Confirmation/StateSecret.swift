import Foundation

/// The secret replicas share (`--state-secret-file`): the key, through HKDF, of every
/// `requestState` the server signs, so that any replica verifies what another issued.
///
/// The file must be a regular file that only its owner can read or write (mode 0600 or 0400) and
/// hold at least 32 bytes (trailing whitespace and newlines aside), for example
/// `head -c 48 /dev/urandom | base64 > secret && chmod 600 secret`.
struct StateSecret: Sendable {
    /// The file's path, for messages.
    let path: String
    /// The secret's bytes.
    let bytes: Data

    /// The fewest bytes a secret may have.
    static let minimumLength = 32

    /// Reads and checks the file.
    ///
    /// - Throws: ``DBAIServerConfigurationError/stateSecret(_:reason:)`` when the file is
    ///   missing, not a regular file, readable or writable by others than its owner, or too short.
    init(path: String) throws(DBAIServerConfigurationError) {
        self.path = path
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw .stateSecret(path, reason: "it cannot be read (\(String(cString: strerror(errno))))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .stateSecret(path, reason: "it is not a regular file") }
        let permissions = status.st_mode & 0o777
        guard permissions & 0o077 == 0 else {
            throw .stateSecret(
                path, reason: "its mode is \(String(permissions, radix: 8)): others than its owner can reach it (chmod 600 \(path))")
        }
        guard let contents = FileManager.default.contents(atPath: path) else {
            throw .stateSecret(path, reason: "it cannot be read")
        }
        var end = contents.endIndex
        while end > contents.startIndex, [0x20, 0x09, 0x0A, 0x0D].contains(contents[end - 1]) { end -= 1 }
        bytes = contents[contents.startIndex..<end]
        guard bytes.count >= Self.minimumLength else {
            throw .stateSecret(
                path, reason: "it holds \(bytes.count) bytes; a secret needs at least \(Self.minimumLength) (head -c 48 /dev/urandom | base64 > \(path))")
        }
    }
}
