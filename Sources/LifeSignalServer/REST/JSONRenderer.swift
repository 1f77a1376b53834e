import Foundation
import LifeSignalBackend
import LifeSignalDomain

/// Writes rows as PostgREST's JSON from the column types of the schema cache: what
/// PostgreSQL's `json_agg` produces, rebuilt for SQLite, which stores booleans as integers and
/// timestamps as text.
enum JSONRenderer {
    static func array(_ rows: [SQLRow], columns: [(name: String, column: ColumnSchema)]) -> String {
        var output = "["
        for (index, row) in rows.enumerated() {
            if index > 0 { output += "," }
            output += object(row, columns: columns)
        }
        return output + "]"
    }

    static func object(_ row: SQLRow, columns: [(name: String, column: ColumnSchema)]) -> String {
        var output = "{"
        for (index, entry) in columns.enumerated() {
            if index > 0 { output += "," }
            output += quote(entry.name) + ":" + value(row.values[index], type: entry.column.type)
        }
        return output + "}"
    }

    /// Rows as a JSON array, each projected by name onto `columns` (for `RETURNING *` rows
    /// shaped by a request's `select=`).
    static func projected(_ rows: [SQLRow], columns: [(name: String, column: ColumnSchema)]) -> [String] {
        rows.map { row in
            "{" + columns.map { quote($0.name) + ":" + value(row[$0.column.name], type: $0.column.type) }.joined(separator: ",") + "}"
        }
    }

    static func value(_ value: SQLValue, type: String) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number) where type == "boolean": return number != 0 ? "true" : "false"
        case .int(let number): return String(number)
        case .double(let number): return number.isFinite ? String(number) : "null"
        case .json(let text): return text
        case .timestamp(let date): return quote(Timestamp.postgresText(date))
        case .uuid(let uuid): return quote(uuid.uuidString.lowercased())
        case .bytes(let data): return quote("\\x" + data.map { String(format: "%02x", $0) }.joined())
        case .text(let text), .literal(let text):
            // SQLite keeps an array column as the JSON array it renders as.
            if type == "jsonb" || type == "json" || type.hasSuffix("[]") { return text }
            if type == "timestamptz", let text = Timestamp.postgresText(stored: text) { return quote(text) }
            return quote(text)
        }
    }

    static func quote(_ text: String) -> String {
        // Most values need no escaping: one scan of the bytes, then a single append (the
        // scalar-by-scalar path below dominated the profile of a 50-row page).
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + text + "\""
        }
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case let control where control.value < 0x20:
                output += String(format: "\\u%04x", control.value)
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }
}
