import Foundation
import LifeSignalBackend
import LifeSignalDomain
import Testing

@testable import LifeSignalServer

/// SQLite's rows rendered as PostgreSQL's `json_agg` would render them, byte for byte.
@Suite("REST: JSON rendering of SQLite rows")
struct JSONRendererTests {
    static let columns: [(name: String, column: ColumnSchema)] = [
        ("id", ColumnSchema(name: "id", type: "integer", isPrimaryKey: true)),
        ("ok", ColumnSchema(name: "ok", type: "boolean")),
        ("name", ColumnSchema(name: "name", type: "text")),
        ("at", ColumnSchema(name: "at", type: "timestamptz")),
        ("tags", ColumnSchema(name: "tags", type: "text[]")),
        ("raw", ColumnSchema(name: "raw", type: "bytea")),
        ("score", ColumnSchema(name: "score", type: "double precision")),
    ]

    @Test("every kind of value, and text that needs escaping, in PostgreSQL's form")
    func everyKindOfValue() throws {
        let row = SQLRow(
            columns: Self.columns.map(\.name),
            values: [
                .int(7), .int(1), .text("quote \" backslash \\ tab \t newline \n bell \u{07} é 🚑"),
                .text("2024-06-05T12:00:00.500000+00:00"), .text(#"["a","b"]"#), .bytes(Data([0x00, 0xab, 0xff])), .double(.infinity),
            ])
        let rendered = JSONRenderer.array([row, row], columns: Self.columns)
        let one =
            #"{"id":7,"ok":true,"name":"quote \" backslash \\ tab \t newline \n bell \u0007 é 🚑","at":"2024-06-05T12:00:00.5+00:00","#
            + #""tags":["a","b"],"raw":"\\x00abff","score":null}"#
        #expect(rendered == "[" + one + "," + one + "]")
        // And it is JSON that reads back to the same text.
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(rendered.utf8)) as? [[String: Any]])
        #expect(parsed.first?["name"] as? String == "quote \" backslash \\ tab \t newline \n bell \u{07} é 🚑")
        #expect(JSONRenderer.array([], columns: Self.columns) == "[]")
        #expect(JSONRenderer.quote("a\u{1f}b") == #""a\u001fb""#)
        // Backspace and form feed in their short forms, as PostgreSQL and SQLite write them.
        #expect(JSONRenderer.quote("\u{08}\u{0c}") == #""\b\f""#)
    }

    @Test("timestamps: the stored form cut as PostgreSQL writes it, any other form through a parse")
    func timestamps() {
        let column = [("at", ColumnSchema(name: "at", type: "timestamptz"))]
        let cases: [(stored: String, written: String)] = [
            ("2024-06-05T12:00:00.000000+00:00", "2024-06-05T12:00:00+00:00"),
            ("2024-06-05T12:00:00.100000+00:00", "2024-06-05T12:00:00.1+00:00"),
            ("2024-06-05T12:00:00.123456+00:00", "2024-06-05T12:00:00.123456+00:00"),
            ("2024-06-05T12:00:00.000010+00:00", "2024-06-05T12:00:00.00001+00:00"),
            ("2024-06-05T12:00:00Z", "2024-06-05T12:00:00+00:00"),
            ("2024-06-05T14:00:00.250000+02:00", "2024-06-05T12:00:00.25+00:00"),
            ("not a time", "not a time"),
        ]
        for (stored, written) in cases {
            let row = SQLRow(columns: ["at"], values: [.text(stored)])
            #expect(JSONRenderer.array([row], columns: column) == #"[{"at":""# + written + #""}]"#, "\(stored)")
            #expect(Timestamp.postgresText(stored: stored) ?? stored == written, "\(stored)")
        }
    }

    @Test("keys that need escaping, and an object without columns")
    func keysAndEmptyObjects() {
        let columns = [("a\"b", ColumnSchema(name: "a\"b", type: "text")), ("ok", ColumnSchema(name: "ok", type: "boolean"))]
        let row = SQLRow(columns: ["a\"b", "ok"], values: [.text("x"), .bool(false)])
        #expect(JSONRenderer.array([row, row], columns: columns) == #"[{"a\"b":"x","ok":false},{"a\"b":"x","ok":false}]"#)
        #expect(JSONRenderer.array([row], columns: []) == "[{}]")
        #expect(JSONRenderer.object(row, columns: []) == "{}")
    }

    @Test("nulls, false, and a row projected by name")
    func nullsAndProjection() {
        let row = SQLRow(columns: ["ok", "id"], values: [.int(0), .null])
        let projected = JSONRenderer.projected([row], columns: [Self.columns[0], Self.columns[1]])
        #expect(projected == [#"{"id":null,"ok":false}"#])
    }
}
