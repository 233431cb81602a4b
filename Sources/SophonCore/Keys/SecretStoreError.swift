import Foundation

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
