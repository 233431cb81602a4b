import Foundation

/// A secret store in one JSON file (`keys.json`): an object of account -> secret string, e.g.
/// `{"gemini": "AIza..."}`. The platform store on Linux.
///
/// - The folder is created `0700` and the file `0600`, written atomically (``AtomicFile``): a
///   crash leaves the old file or the new one.
/// - A file that group or others can access (`mode & 0o077 != 0`) is refused on every read,
///   save and delete, with a message saying how to fix it (`chmod 600 '...'`), as `ssh` does.
/// - A file that is not a JSON object of strings is reported, naming the file, and never
///   overwritten (saving refuses too). An empty file counts as an empty store.
/// - The file is written with sorted accounts, indented by two spaces, ending in a newline.
///
/// Saves from two processes at the same moment are not merged: the last one wins.
public struct FileSecretStore: SecretWriting {
    /// The key file.
    public let fileURL: URL

    /// Creates a store over `fileURL` (nothing is read or created until used).
    ///
    /// - Parameter fileURL: The JSON file, e.g. ``SophonPaths/keysFile``.
    public init(fileURL: URL) {
        self.fileURL = fileURL
    }

    /// Creates a store over ``SophonPaths/keysFile``.
    ///
    /// - Parameter paths: Sophon's resolved folders.
    public init(paths: SophonPaths) {
        self.init(fileURL: paths.keysFile)
    }

    /// Looks up `account` in the file.
    ///
    /// - Parameter account: The account name, e.g. `gemini`.
    /// - Returns: The secret with source ``SecretSource/file(path:)``, or `nil` when the file
    ///   or the account is missing, or its secret is empty.
    /// - Throws: ``SecretStoreError`` `insecurePermissions`, `corruptFile` or `file`.
    public func secret(for account: String) throws(SecretStoreError) -> SecretLookup? {
        guard let secret = try readAll()[account], !secret.isEmpty else { return nil }
        return SecretLookup(secret: secret, source: .file(path: fileURL.path))
    }

    /// Every account and secret in the file (empty when the file does not exist).
    ///
    /// - Returns: Account -> secret.
    /// - Throws: ``SecretStoreError`` `insecurePermissions`, `corruptFile` or `file`.
    public func readAll() throws(SecretStoreError) -> [String: String] {
        let path = fileURL.path
        let snapshot: FileSnapshot?
        do {
            snapshot = try FileSnapshot.read(at: fileURL, maxBytes: 1 << 20)
        } catch {
            throw .file(error)
        }
        guard let snapshot else { return [:] }
        if snapshot.permissions & 0o077 != 0 {
            throw .insecurePermissions(path: path, permissions: UInt32(snapshot.permissions))
        }
        return try Self.decode(snapshot.data, path: path)
    }

    /// Stores `secret` for `account`, keeping the other accounts.
    ///
    /// - Parameters:
    ///   - secret: The secret, not empty.
    ///   - account: The account name, not empty.
    /// - Returns: ``SecretSource/file(path:)``.
    /// - Throws: ``SecretStoreError`` `emptySecret`, `emptyAccount`, and whatever reading the
    ///   current file throws (a refused or corrupt file is not overwritten), or `file` when the
    ///   write fails (the old file is then intact).
    @discardableResult
    public func save(_ secret: String, for account: String) throws(SecretStoreError) -> SecretSource {
        guard !account.isEmpty else { throw .emptyAccount }
        guard !secret.isEmpty else { throw .emptySecret(account: account) }
        var all = try readAll()
        all[account] = secret
        try write(all)
        return .file(path: fileURL.path)
    }

    /// Removes `account` from the file. The file stays (possibly as `{}`); a missing file is
    /// not created.
    ///
    /// - Parameter account: The account name.
    /// - Returns: `true` when the account was in the file.
    /// - Throws: ``SecretStoreError`` as ``readAll()``, or `file` when the write fails.
    @discardableResult
    public func deleteSecret(for account: String) throws(SecretStoreError) -> Bool {
        var all = try readAll()
        guard all.removeValue(forKey: account) != nil else { return false }
        try write(all)
        return true
    }

    private func write(_ all: [String: String]) throws(SecretStoreError) {
        let members = all.keys.sorted().map { JSONMember($0, .string(all[$0] ?? "")) }
        let text = JSONValue.object(members).prettyText + "\n"
        do {
            try PrivateFiles.write(Data(text.utf8), to: fileURL, folder: .sophon)
        } catch {
            throw .file(error)
        }
    }

    /// Parses the file's bytes as an object of strings.
    static func decode(_ data: Data, path: String) throws(SecretStoreError) -> [String: String] {
        guard let text = String(data: data, encoding: .utf8) else {
            throw .corruptFile(path: path, detail: "not UTF-8 text")
        }
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return [:] }
        do {
            return try JSONDecoder().decode([String: String].self, from: data)
        } catch let DecodingError.typeMismatch(_, context) {
            guard let account = context.codingPath.first?.stringValue else {
                throw .corruptFile(path: path, detail: "the top level is not an object")
            }
            throw .corruptFile(path: path, detail: "the value of \"\(account)\" is not a string")
        } catch let DecodingError.valueNotFound(_, context) {
            let account = context.codingPath.first?.stringValue ?? ""
            throw .corruptFile(path: path, detail: "the value of \"\(account)\" is not a string")
        } catch {
            throw .corruptFile(path: path, detail: "not valid JSON")
        }
    }
}

/// Why a secret could not be read, saved or deleted. `description` is the message for people,
/// and says how to fix the problem when there is a fix.
public enum SecretStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The key file can be accessed by group or others (`mode & 0o077 != 0`): it is refused,
    /// as `ssh` refuses such a private key.
    case insecurePermissions(path: String, permissions: UInt32)
    /// The key file is not a JSON object of account -> secret string. It is never overwritten:
    /// saving refuses too, so a hand-edited file with a typo does not lose its other keys.
    case corruptFile(path: String, detail: String)
    /// A file system call failed.
    case file(SophonFileError)
    /// A Keychain call (`SecItemAdd`, `SecItemCopyMatching`, ...) returned an error status.
    case keychain(operation: String, status: Int32)
    /// An empty secret was given to save.
    case emptySecret(account: String)
    /// An empty account name was given.
    case emptyAccount

    /// One line, e.g. `/home/ada/.config/sophon/keys.json is readable by other users (mode 0644);
    /// run: chmod 600 '/home/ada/.config/sophon/keys.json'`.
    public var description: String {
        switch self {
        case .insecurePermissions(let path, let permissions):
            let access = permissions & 0o044 != 0 ? "readable" : "accessible"
            return "\(path) is \(access) by other users (mode \(Self.octal(permissions))); "
                + "run: chmod 600 \(Self.shellQuoted(path))"
        case .corruptFile(let path, let detail):
            return "\(path) is not a JSON object of account names to secret strings (\(detail)); "
                + "fix or remove it: Sophon will not overwrite it"
        case .file(let error):
            return error.description
        case .keychain(let operation, let status):
            return "Keychain \(operation) failed (OSStatus \(status))"
        case .emptySecret(let account):
            return "refusing to save an empty secret for account '\(account)'"
        case .emptyAccount:
            return "the account name is empty"
        }
    }

    /// Mode bits as four octal digits: `0o644` -> `0644`.
    static func octal(_ permissions: UInt32) -> String {
        let digits = String(permissions & 0o7777, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// `text` in single quotes for a POSIX shell (`'` becomes `'\''`).
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
