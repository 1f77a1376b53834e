import Foundation
import LifeSignalDomain

/// One result row: the columns in select order, with typed accessors that hide how each
/// engine stores uuids, timestamps and booleans.
public struct SQLRow: Sendable, Hashable {
    public let columns: [String]
    public let values: [SQLValue]

    public init(columns: [String], values: [SQLValue]) {
        self.columns = columns
        self.values = values
    }

    public subscript(_ column: String) -> SQLValue {
        guard let index = columns.firstIndex(of: column) else { return .null }
        return values[index]
    }

    private func failure(_ column: String, _ expected: String) -> DatabaseError {
        .decoding("column \"\(column)\" holds \(self[column]), expected \(expected)")
    }

    public func string(_ column: String) throws -> String {
        guard let value = optionalString(column) else { throw failure(column, "text") }
        return value
    }

    public func optionalString(_ column: String) -> String? { self[column].textValue }

    public func int(_ column: String) throws -> Int {
        guard let value = optionalInt(column) else { throw failure(column, "an integer") }
        return value
    }

    public func optionalInt(_ column: String) -> Int? {
        switch self[column] {
        case .int(let value): Int(value)
        // SQLite keeps a REAL written into an INTEGER column (`1e300`, by any path that
        // does not check types); `Int(_:)` would trap on it, so it reads as no integer.
        case .double(let value): Int(exactly: value.rounded(.towardZero))
        case .bool(let value): value ? 1 : 0
        case .text(let text), .literal(let text): Int(text)
        default: nil
        }
    }

    public func double(_ column: String) throws -> Double {
        switch self[column] {
        case .int(let value): return Double(value)
        case .double(let value): return value
        case .text(let text): if let value = Double(text) { return value }
        default: break
        }
        throw failure(column, "a number")
    }

    public func bool(_ column: String) throws -> Bool {
        switch self[column] {
        case .bool(let value): return value
        case .int(let value): return value != 0
        case .text(let text): if text == "true" || text == "1" { return true } else if text == "false" || text == "0" { return false }
        default: break
        }
        throw failure(column, "a boolean")
    }

    public func uuid(_ column: String) throws -> UUID {
        guard let value = optionalUUID(column) else { throw failure(column, "a uuid") }
        return value
    }

    public func optionalUUID(_ column: String) -> UUID? {
        switch self[column] {
        case .uuid(let value): value
        case .text(let text): UUID(uuidString: text)
        default: nil
        }
    }

    public func date(_ column: String) throws -> Date {
        guard let value = optionalDate(column) else { throw failure(column, "a timestamp") }
        return value
    }

    public func optionalDate(_ column: String) -> Date? {
        switch self[column] {
        case .timestamp(let value): value
        case .text(let text): Timestamp.parse(text)
        default: nil
        }
    }
}
