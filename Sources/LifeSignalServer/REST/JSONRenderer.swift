import Foundation
import LifeSignalBackend
import LifeSignalDomain

/// Writes rows as PostgREST's JSON from the column types of the schema cache: what
/// PostgreSQL's `json_agg` produces, rebuilt for SQLite, which stores booleans as integers and
/// timestamps as text.
///
/// A page is written as bytes into one buffer and made a `String` once: built from `String`
/// pieces (`+`, interpolation), rendering took over a quarter of the server's CPU on a SQLite
/// read of 50 rows, most of it growing and copying small strings.
enum JSONRenderer {
    static func array(_ rows: [SQLRow], columns: [(name: String, column: ColumnSchema)]) -> String {
        var output = JSONBytes(capacity: 64 + rows.count * columns.count * 24)
        output.byte(UInt8(ascii: "["))
        for (index, row) in rows.enumerated() {
            if index > 0 { output.byte(UInt8(ascii: ",")) }
            output.object(row.values, columns: columns)
        }
        output.byte(UInt8(ascii: "]"))
        return output.string
    }

    static func object(_ row: SQLRow, columns: [(name: String, column: ColumnSchema)]) -> String {
        var output = JSONBytes(capacity: 16 + columns.count * 24)
        output.object(row.values, columns: columns)
        return output.string
    }

    /// Rows as a JSON array, each projected by name onto `columns` (for `RETURNING *` rows
    /// shaped by a request's `select=`).
    static func projected(_ rows: [SQLRow], columns: [(name: String, column: ColumnSchema)]) -> [String] {
        rows.map { row in
            var output = JSONBytes(capacity: 16 + columns.count * 24)
            output.object(columns.map { row[$0.column.name] }, columns: columns)
            return output.string
        }
    }

    static func value(_ value: SQLValue, type: String) -> String {
        var output = JSONBytes(capacity: 32)
        output.value(value, type: type)
        return output.string
    }

    static func quote(_ text: String) -> String {
        var output = JSONBytes(capacity: text.utf8.count + 2)
        output.quoted(text)
        return output.string
    }
}

/// The buffer ``JSONRenderer`` writes into.
struct JSONBytes {
    private(set) var bytes: [UInt8] = []
    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    var string: String { String(decoding: bytes, as: UTF8.self) }

    mutating func byte(_ byte: UInt8) { bytes.append(byte) }

    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    /// One object of `values`, the i-th named by the i-th column.
    mutating func object(_ values: [SQLValue], columns: [(name: String, column: ColumnSchema)]) {
        byte(UInt8(ascii: "{"))
        for (index, entry) in columns.enumerated() {
            if index > 0 { byte(UInt8(ascii: ",")) }
            quoted(entry.name)
            byte(UInt8(ascii: ":"))
            value(index < values.count ? values[index] : .null, type: entry.column.type)
        }
        byte(UInt8(ascii: "}"))
    }

    mutating func value(_ value: SQLValue, type: String) {
        switch value {
        case .null: raw("null")
        case .bool(let flag): raw(flag ? "true" : "false")
        case .int(let number) where type == "boolean": raw(number != 0 ? "true" : "false")
        case .int(let number): raw(String(number))
        case .double(let number): raw(number.isFinite ? String(number) : "null")
        case .json(let text): raw(text)
        case .timestamp(let date): quoted(Timestamp.postgresText(date))
        case .uuid(let uuid): quoted(uuid.uuidString.lowercased())
        case .bytes(let data):
            byte(UInt8(ascii: "\""))
            raw("\\\\x")
            for octet in data {
                byte(Self.hex[Int(octet >> 4)])
                byte(Self.hex[Int(octet & 0x0f)])
            }
            byte(UInt8(ascii: "\""))
        case .text(let text), .literal(let text):
            // SQLite keeps an array column as the JSON array it renders as.
            if type == "jsonb" || type == "json" || type.hasSuffix("[]") {
                raw(text)
            } else if type == "timestamptz", let text = Timestamp.postgresText(stored: text) {
                quoted(text)
            } else {
                quoted(text)
            }
        }
    }

    /// `text` as a JSON string. Only `"`, `\` and control characters are escaped; everything
    /// else, multi-byte UTF-8 included, is copied as it is.
    mutating func quoted(_ text: String) {
        byte(UInt8(ascii: "\""))
        for unit in text.utf8 {
            switch unit {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case UInt8(ascii: "\n"): raw("\\n")
            case UInt8(ascii: "\r"): raw("\\r")
            case UInt8(ascii: "\t"): raw("\\t")
            case 0..<0x20:
                raw("\\u00")
                byte(Self.hex[Int(unit >> 4)])
                byte(Self.hex[Int(unit & 0x0f)])
            default: byte(unit)
            }
        }
        byte(UInt8(ascii: "\""))
    }
}
