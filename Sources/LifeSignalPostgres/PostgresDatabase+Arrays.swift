import Foundation
import LifeSignalBackend
import PostgresNIO

extension PostgresDatabase {
    /// A one-dimensional text array in PostgreSQL's binary form as a JSON array, `NULL`
    /// elements included (PostgresNIO's `[String]` decoding refuses those).
    ///
    /// The binary form: dimensions, a has-nulls flag and the element type, a (size, lower
    /// bound) pair per dimension, then each element as a length (-1 for `NULL`) and bytes.
    static func textArrayJSON(_ cell: PostgresCell) throws -> String {
        guard var bytes = cell.bytes, cell.format == .binary else {
            throw DatabaseError.decoding("column \"\(cell.columnName)\" is an array PostgreSQL did not send in binary")
        }
        func malformed() -> DatabaseError { .decoding("column \"\(cell.columnName)\" holds a malformed array") }
        guard let dimensions = bytes.readInteger(as: Int32.self), bytes.readInteger(as: Int32.self) != nil,
            bytes.readInteger(as: UInt32.self) != nil
        else { throw malformed() }
        guard dimensions <= 1 else {
            throw DatabaseError.decoding("column \"\(cell.columnName)\" is a \(dimensions)-dimensional array; only one dimension is supported")
        }
        var count: Int32 = 0
        if dimensions == 1 {
            guard let size = bytes.readInteger(as: Int32.self), bytes.readInteger(as: Int32.self) != nil, size >= 0 else { throw malformed() }
            count = size
        }
        var elements: [String?] = []
        for _ in 0..<count {
            guard let length = bytes.readInteger(as: Int32.self) else { throw malformed() }
            if length < 0 {
                elements.append(nil)
                continue
            }
            guard let text = bytes.readString(length: Int(length)) else { throw malformed() }
            elements.append(text)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return String(decoding: try encoder.encode(elements), as: UTF8.self)
    }
}
