import Foundation

/// The secret replicas share (`--state-secret-file`): the key, through HKDF, of every
/// `requestState` the server signs, so that any replica verifies what another issued.
///
/// The file must be a regular file (a symbolic link to one is followed) that belongs to the user
/// the server runs as and that nobody else can read or write (mode 0600 or 0400), and hold at
/// least 32 bytes (trailing whitespace and newlines aside), for example
/// `head -c 48 /dev/urandom | base64 > secret && chmod 600 secret`.
struct StateSecret: Sendable {
    /// The file's path, for messages.
    let path: String
    /// The secret's bytes.
    let bytes: Data

    /// The fewest bytes a secret may have.
    static let minimumLength = 32
    /// The most bytes a secret file may have.
    static let maximumLength = 65_536

    /// Reads and checks the file.
    ///
    /// - Throws: ``DBAIServerConfigurationError/stateSecret(_:reason:)`` when the file is
    ///   missing, not a regular file, another user's, readable or writable by others than its
    ///   owner, too short or too long.
    init(path: String) throws(DBAIServerConfigurationError) {
        self.path = path
        // Opened once, then checked and read through the same descriptor: what is read is what
        // was checked (a symbolic link is followed, as secret volumes use them).
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            throw .stateSecret(path, reason: "it cannot be read (\(String(cString: strerror(errno))))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw .stateSecret(path, reason: "it cannot be examined (\(String(cString: strerror(errno))))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .stateSecret(path, reason: "it is not a regular file") }
        guard status.st_uid == geteuid() else {
            throw .stateSecret(path, reason: "it belongs to user \(status.st_uid), not to the user the server runs as (\(geteuid())): chown it")
        }
        let permissions = status.st_mode & 0o777
        guard permissions & 0o077 == 0 else {
            throw .stateSecret(
                path, reason: "its mode is \(String(permissions, radix: 8)): others than its owner can reach it (chmod 600 \(path))")
        }
        guard status.st_size <= Self.maximumLength else {
            throw .stateSecret(path, reason: "it holds \(status.st_size) bytes; a secret is at most \(Self.maximumLength)")
        }
        var contents = Data()
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while contents.count <= Self.maximumLength {
            let count = read(descriptor, &buffer, buffer.count)
            guard count >= 0 else { throw .stateSecret(path, reason: "it cannot be read (\(String(cString: strerror(errno))))") }
            guard count > 0 else { break }
            contents.append(contentsOf: buffer[0..<count])
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
