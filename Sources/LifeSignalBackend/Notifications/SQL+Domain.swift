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

extension SQLConnection {
    /// `" FOR UPDATE"` on PostgreSQL, nothing on SQLite (whose transactions are serialised).
    var forUpdate: SQL { dialect == .postgres ? SQL.raw(" FOR UPDATE") : SQL.raw("") }
}
