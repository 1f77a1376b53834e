/// Every code a `/rest/v1` error carries: PostgREST's own (`PGRST…`, as PostgREST numbers
/// them), the SQLSTATEs the server raises itself where PostgreSQL would have, and any other
/// SQLSTATE the database reports, passed through.
enum RESTErrorCode: Hashable, Sendable {
    /// `PGRST000`: the server failed in a way the request did not cause.
    case internalError
    /// `PGRST001`: the database cannot be reached just now (503, worth retrying).
    case databaseUnreachable
    /// `PGRST100`: the query string does not parse, or goes past a ``QueryLimits`` bound.
    case unparsableQuery
    /// `PGRST102`: the body is not JSON, or its objects do not share their keys.
    case invalidBody
    /// `PGRST103`: the range asked for is past the rows.
    case unsatisfiableRange
    /// `PGRST105`: a PUT's filters are not exactly its primary key with `eq`.
    case invalidPut
    /// `PGRST107`: none of the accepted media types can be given.
    case unacceptableMediaType
    /// `PGRST114`: a PUT with `limit` or `offset`.
    case putWithLimits
    /// `PGRST115`: a PUT's body and URL disagree on the primary key.
    case putKeyMismatch
    /// `PGRST116`: a singular response (`vnd.pgrst.object`) and not exactly one row.
    case notSingular
    /// `PGRST204`: a body names a column the schema cache does not hold.
    case unknownBodyColumn
    /// `PGRST205`: the table is not in the schema cache.
    case unknownTable
    /// `PGRST301`: the bearer token is malformed or wrongly signed.
    case invalidToken
    /// `PGRST303`: the bearer token has expired.
    case expiredToken
    /// `PGRST413`: the body or its rows are over the server's limit.
    case bodyTooLarge
    /// SQLSTATE `42501`: the role lacks the grant, or a policy refuses the row.
    case insufficientPrivilege
    /// SQLSTATE `21000`: an UPDATE or DELETE without a filter.
    case cardinalityViolation
    /// SQLSTATE `42883`: no operator for these types.
    case undefinedFunction
    /// SQLSTATE `42703`: no such column.
    case undefinedColumn
    /// SQLSTATE `22P02`: text that is not a value of the type (a malformed array literal).
    case invalidTextRepresentation
    /// SQLSTATE `22007`: text that is not a date or time.
    case invalidDatetimeFormat
    /// SQLSTATE `22023`: a token's role does not exist.
    case invalidParameterValue
    /// SQLSTATE `22021`: a NUL byte, which PostgreSQL's text cannot hold.
    case characterNotInRepertoire
    /// Any other SQLSTATE, as the database reported it.
    case sqlState(String)

    private static let named: [(RESTErrorCode, String)] = [
        (.internalError, "PGRST000"), (.databaseUnreachable, "PGRST001"), (.unparsableQuery, "PGRST100"), (.invalidBody, "PGRST102"),
        (.unsatisfiableRange, "PGRST103"), (.invalidPut, "PGRST105"), (.unacceptableMediaType, "PGRST107"), (.putWithLimits, "PGRST114"),
        (.putKeyMismatch, "PGRST115"), (.notSingular, "PGRST116"), (.unknownBodyColumn, "PGRST204"), (.unknownTable, "PGRST205"),
        (.invalidToken, "PGRST301"), (.expiredToken, "PGRST303"), (.bodyTooLarge, "PGRST413"), (.insufficientPrivilege, "42501"),
        (.cardinalityViolation, "21000"), (.undefinedFunction, "42883"), (.undefinedColumn, "42703"),
        (.invalidTextRepresentation, "22P02"), (.invalidDatetimeFormat, "22007"), (.invalidParameterValue, "22023"), (.characterNotInRepertoire, "22021"),
    ]

    /// A SQLSTATE from the database: one of the named cases when it is one of theirs, so a
    /// code compares equal however it arose.
    init(sqlState: String) {
        self = Self.named.first { $0.1 == sqlState }?.0 ?? .sqlState(sqlState)
    }

    /// The code as it goes on the wire.
    var rawValue: String {
        if case .sqlState(let state) = self { return state }
        return Self.named.first { $0.0 == self }?.1 ?? "PGRST000"
    }

    /// A refused bearer token (`WWW-Authenticate: Bearer error="invalid_token"`).
    var isTokenRefusal: Bool { self == .invalidToken || self == .expiredToken }
}
