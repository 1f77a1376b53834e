import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// Lets the domain's identifiers and instants be interpolated into ``SQL`` as bound
/// parameters, like the built-in scalar types.
extension SQL.StringInterpolation {
    mutating func appendInterpolation(_ value: UUID?) { appendInterpolation(SQLValue(value)) }
    mutating func appendInterpolation(_ value: Date?) { appendInterpolation(SQLValue(value)) }
    mutating func appendInterpolation(_ value: UserID?) { appendInterpolation(SQLValue(value?.rawValue)) }
}

extension SQLDialect {
    /// `" FOR UPDATE"` on PostgreSQL, nothing on SQLite (whose transactions are serialised).
    var forUpdate: SQL { self == .postgres ? SQL.raw(" FOR UPDATE") : SQL.raw("") }
    /// `" FOR UPDATE SKIP LOCKED"` on PostgreSQL (concurrent claimers take disjoint rows),
    /// nothing on SQLite.
    var forUpdateSkipLocked: SQL { self == .postgres ? SQL.raw(" FOR UPDATE SKIP LOCKED") : SQL.raw("") }
}

extension SQLConnection {
    /// The row lock of ``SQLDialect/forUpdate`` in this connection's dialect.
    var forUpdate: SQL { dialect.forUpdate }
}
