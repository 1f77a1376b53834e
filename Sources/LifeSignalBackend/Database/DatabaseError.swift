/// A failure reported by either engine, normalised to PostgreSQL's vocabulary.
///
/// SQLite's constraint errors are given the SQLSTATE PostgreSQL would have used
/// (`23505` unique, `23502` not null, `23503` foreign key, `23514` check), so the layers
/// above map one set of codes to one set of responses.
public enum DatabaseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The engine rejected a statement.
    case statement(sqlState: String, message: String, detail: String?, hint: String?)
    /// The engine could not be reached or the connection broke.
    case unavailable(String)
    /// A row held a value of an unexpected type.
    case decoding(String)
    /// The configuration is unusable (bad URL, unknown scheme).
    case configuration(String)

    public var sqlState: String? {
        if case .statement(let state, _, _, _) = self { return state }
        return nil
    }

    public var description: String {
        switch self {
        case .statement(let state, let message, let detail, _):
            "SQL error \(state): \(message)" + (detail.map { " (\($0))" } ?? "")
        case .unavailable(let why): "database unavailable: \(why)"
        case .decoding(let why): "unexpected value: \(why)"
        case .configuration(let why): "database configuration: \(why)"
        }
    }

    public var isUniqueViolation: Bool { sqlState == "23505" }
    public var isForeignKeyViolation: Bool { sqlState == "23503" }

    /// The database could not be reached, or dropped the connection mid-statement (a restart's
    /// `57P01`, a connection-class `08…` state): the request may succeed when retried, so it is
    /// answered 503 with `Retry-After`, never 500.
    public var isUnavailable: Bool {
        switch self {
        case .unavailable: true
        case .statement(let state, _, _, _): Self.isConnectionState(state)
        case .decoding, .configuration: false
        }
    }

    /// SQLSTATEs that mean the server or the connection went away, not that the statement was
    /// wrong: class 08 (connection exception), `57P01`–`57P03` (admin, crash or pending
    /// shutdown; cannot connect now) and `53300` (too many connections).
    package static func isConnectionState(_ state: String) -> Bool {
        state.hasPrefix("08") || ["57P01", "57P02", "57P03", "53300"].contains(state)
    }

    /// The seconds a client is told to wait (`Retry-After`) while the database is unreachable:
    /// about how often the server checks whether it is back.
    public static let retryAfterSeconds = 1
}
