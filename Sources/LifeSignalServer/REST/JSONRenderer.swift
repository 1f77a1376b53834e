import Foundation
import LifeSignalBackend
import LifeSignalDomain

/// Writes rows as PostgREST's JSON from the column types of the schema cache: what
/// PostgreSQL's `json_agg` produces, rebuilt for SQLite, which stores booleans as integers and
/// timestamps as text.
///
/// A page is written as bytes into one buffer and made a `String` once: built from `String`
/// pieces (`+`, interpolation), rendering took over a quarter of the server's CPU on a SQLite
/// read of 50 rows, most of it growing and copying small strings. Text is copied in runs
/// between the bytes that need escaping.
///
/// Keys are quoted and column types read once a page (``JSONObjectLayout``), and stored
/// timestamps are cut into PostgreSQL's form as bytes: per value, those were over half of
/// the rendering's time. (Having SQLite write the page itself, `group_concat` of one `CASE`
/// per column, was measured and dropped when sqlite-nio prepared every statement anew; it has
/// not been measured since SQLite's read connections keep their statements.)
enum JSONRenderer {
    static func array(_ rows: [SQLRow], columns: [(name: String, column: ColumnSchema)]) -> String {
        var output = JSONBytes(capacity: 64 + rows.count * columns.count * 24)
        // Each key quoted and each type read once a page, not once a row.
        let layout = JSONObjectLayout(columns)
        output.byte(UInt8(ascii: "["))
        for (index, row) in rows.enumerated() {
            if index > 0 { output.byte(UInt8(ascii: ",")) }
            output.object(row.values, layout: layout)
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

/// How a column's stored value is written, by the column's type: an integer as a boolean,
/// text kept as JSON, turned into PostgreSQL's timestamp text, or quoted.
enum JSONTextKind {
    /// SQLite keeps booleans as 0 and 1.
    case boolean
    /// JSON kept as its text (`json`, `jsonb`, and arrays, which SQLite keeps as JSON arrays).
    case raw
    case timestamp
    case plain

    init(type: String) {
        if type == "boolean" {
            self = .boolean
        } else if type == "jsonb" || type == "json" || type.hasSuffix("[]") {
            self = .raw
        } else if type == "timestamptz" {
            self = .timestamp
        } else {
            self = .plain
        }
    }
}

/// An object's keys as the bytes written before each value (`{"id":`, `,"name":`, …) and how
/// each value is written: worked out once for a page of rows.
struct JSONObjectLayout {
    let keys: [[UInt8]]
    let kinds: [JSONTextKind]

    init(_ columns: [(name: String, column: ColumnSchema)]) {
        keys = columns.enumerated().map { index, entry in
            var key = JSONBytes(capacity: entry.name.utf8.count + 4)
            key.byte(index == 0 ? UInt8(ascii: "{") : UInt8(ascii: ","))
            key.quoted(entry.name)
            key.byte(UInt8(ascii: ":"))
            return key.bytes
        }
        kinds = columns.map { JSONTextKind(type: $0.column.type) }
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
        object(values, layout: JSONObjectLayout(columns))
    }

    mutating func object(_ values: [SQLValue], layout: JSONObjectLayout) {
        if layout.keys.isEmpty { byte(UInt8(ascii: "{")) }
        for index in layout.keys.indices {
            bytes.append(contentsOf: layout.keys[index])
            value(index < values.count ? values[index] : .null, kind: layout.kinds[index])
        }
        byte(UInt8(ascii: "}"))
    }

    mutating func value(_ value: SQLValue, type: String) {
        self.value(value, kind: JSONTextKind(type: type))
    }

    mutating func value(_ value: SQLValue, kind: JSONTextKind) {
        switch value {
        case .null: raw("null")
        case .bool(let flag): raw(flag ? "true" : "false")
        case .int(let number) where kind == .boolean: raw(number != 0 ? "true" : "false")
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
            switch kind {
            case .raw: raw(text)
            case .timestamp: timestamp(stored: text)
            case .plain, .boolean: quoted(text)
            }
        }
    }

    /// A stored timestamp as PostgreSQL writes it, in two copied pieces when it is in the
    /// stored form (no `String` per value), else through ``Timestamp/postgresText(stored:)``.
    private mutating func timestamp(stored text: String) {
        var text = text
        let written = text.withUTF8 { utf8 -> Bool in
            guard let end = Timestamp.storedFractionEnd(utf8) else { return false }
            byte(UInt8(ascii: "\""))
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[0..<end]))
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[26...]))
            byte(UInt8(ascii: "\""))
            return true
        }
        if !written { quoted(Timestamp.postgresText(stored: text) ?? text) }
    }

    /// `text` as a JSON string, escaped as PostgreSQL's `json_agg` (and SQLite's `json_quote`)
    /// escape it: `"`, `\`, the five control characters with short forms (`\b \f \n \r \t`)
    /// and the other control characters as `\u00XX`; everything else, multi-byte UTF-8
    /// included, is copied as it is, in runs rather than byte by byte.
    mutating func quoted(_ text: String) {
        byte(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            for index in 0..<utf8.count {
                let unit = utf8[index]
                guard unit < 0x20 || unit == UInt8(ascii: "\"") || unit == UInt8(ascii: "\\") else { continue }
                if start < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index])) }
                escape(unit)
                start = index + 1
            }
            if start < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...])) }
        }
        byte(UInt8(ascii: "\""))
    }

    private mutating func escape(_ unit: UInt8) {
        switch unit {
        case UInt8(ascii: "\""): raw("\\\"")
        case UInt8(ascii: "\\"): raw("\\\\")
        case 0x08: raw("\\b")
        case 0x0c: raw("\\f")
        case UInt8(ascii: "\n"): raw("\\n")
        case UInt8(ascii: "\r"): raw("\\r")
        case UInt8(ascii: "\t"): raw("\\t")
        default:
            raw("\\u00")
            byte(Self.hex[Int(unit >> 4)])
            byte(Self.hex[Int(unit & 0x0f)])
        }
    }
}
