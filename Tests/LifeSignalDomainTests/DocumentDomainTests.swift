import Foundation
import LifeSignalDomain
import Testing

@Suite("Documents: paths, values, rules, queries")
struct DocumentDomainTests {
    @Test("document and collection paths alternate collection and id; bad segments are refused")
    func paths() throws {
        let path = try DocumentPath("users/u1/contacts/c1")
        #expect(path.id == "c1" && path.parent.rawValue == "users/u1/contacts" && path.parent.parent?.rawValue == "users/u1")
        #expect(try path.collection("notes").document("n").rawValue == "users/u1/contacts/c1/notes/n")
        #expect(try CollectionPath("users").parent == nil)
        let bad = [
            "", "users", "users/u1/contacts", "/users/u1", "users/u1/", "users//u1/c", "users/./x/y", "users/../x/y",
            "users/__u__", "users/a\u{0}b", "users/" + String(repeating: "x", count: 1500) + "/c/" + String(repeating: "y", count: 10),
        ]
        for text in bad {
            #expect(throws: DomainError.self, "\(text.prefix(30))") { _ = try DocumentPath(text) }
        }
        #expect(throws: DomainError.self) { _ = try CollectionPath("users/u1") }
        #expect(throws: DomainError.invalidArgument("\"users\" is a collection, not a document: a document path has an even number of segments")) {
            _ = try DocumentPath("users")
        }
        let decoded = try JSONDecoder().decode([DocumentPath].self, from: Data(#"["users/u1"]"#.utf8))
        #expect(decoded == [try DocumentPath("users/u1")])
        #expect(throws: DecodingError.self) { _ = try JSONDecoder().decode([DocumentPath].self, from: Data(#"["users"]"#.utf8)) }
    }

    @Test("values round-trip through JSON with their types: integer, double and timestamp stay apart")
    func valueJSON() throws {
        let when = Date(timeIntervalSince1970: 1_767_225_600.123456)
        let fields: [String: DocumentValue] = [
            "i": .integer(.max), "d": 1.0, "t": .timestamp(when), "s": "1", "b": true, "n": nil, "x": .bytes(Data([1, 2])),
            "a": [1, 2.5, "three", [:]], "m": ["inner": ["deep": -1]], "inf": .double(.infinity),
        ]
        let text = try DocumentJSON.encode(fields)
        #expect(text.contains(#""i":{"integer":"9223372036854775807"}"#))
        #expect(text.contains(#""t":{"timestamp":"2026-01-01T00:00:00.123456Z"}"#))
        #expect(text.contains(#""inf":{"double":"Infinity"}"#))
        #expect(try DocumentJSON.decode(text) == fields)
        if case .double(let nan)? = try DocumentJSON.decode(#"{"v":{"double":"NaN"}}"#)["v"] {
            #expect(nan.isNaN)
        } else {
            Issue.record("NaN did not decode")
        }
        for broken in [
            #"{"v":{}}"#, #"{"v":{"integer":1}}"#, #"{"v":{"integer":"1.5"}}"#, #"{"v":{"string":"a","null":null}}"#,
            #"{"v":{"timestamp":"yesterday"}}"#, #"{"v":{"date":"x"}}"#,
        ] {
            #expect(throws: DecodingError.self, "\(broken)") { _ = try DocumentJSON.decode(broken) }
        }
    }

    @Test("timestamps are RFC 3339 in UTC with microseconds, and parse offsets")
    func timestamps() {
        #expect(DocumentTimestamp.string(from: Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000000Z")
        #expect(DocumentTimestamp.string(from: Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59.500000Z")
        #expect(DocumentTimestamp.date(from: "2026-01-01T01:00:00.25+01:00") == Date(timeIntervalSince1970: 1_767_225_600.25))
        #expect(DocumentTimestamp.date(from: "2026-01-01T00:00:00.123456789Z") == Date(timeIntervalSince1970: 1_767_225_600.123456))
        #expect(DocumentTimestamp.date(from: "2026-01-01 00:00:00Z") == nil)
    }

    @Test("field paths: dotted for clients, backticks on Firestore's wire")
    func fieldPaths() throws {
        let path = try DocumentFieldPath(dotted: "address.city")
        #expect(path.segments == ["address", "city"] && path.firestoreText == "address.city")
        let odd = try DocumentFieldPath(segments: ["first name", "a`b", "x.y", "_ok1"])
        #expect(odd.firestoreText == #"`first name`.`a\`b`.`x.y`._ok1"#)
        #expect(try DocumentFieldPath(firestore: odd.firestoreText) == odd)
        #expect(try DocumentFieldPath(firestore: "a.b").segments == ["a", "b"] && path.isPrefix(of: try DocumentFieldPath(dotted: "address.city.x")))
        for bad in ["", "a..b", ".a", "a.", "__x__"] {
            #expect(throws: DomainError.self, "\(bad)") { _ = try DocumentFieldPath(dotted: bad) }
        }
        #expect(throws: DomainError.self) { _ = try DocumentFieldPath(firestore: "`open") }
    }

    @Test("rules: sizes, names, nesting, arrays in arrays; update and merge combine as Firestore does")
    func rules() throws {
        let path = try DocumentPath("users/u/notes/n")
        try DocumentRules.validate(["ok": "x"], at: path)
        #expect(throws: DomainError.self) { try DocumentRules.validate(["big": .string(String(repeating: "x", count: 1_048_576))], at: path) }
        #expect(throws: DomainError.self) { try DocumentRules.validate(["": 1], at: path) }
        #expect(throws: DomainError.self) { try DocumentRules.validate(["__id__": 1], at: path) }
        #expect(throws: DomainError.self) { try DocumentRules.validate(["grid": [[1]]], at: path) }
        try DocumentRules.validate(["grid": [["row": [1]]]], at: path)
        var deep: DocumentValue = 1
        for _ in 0..<DocumentRules.maximumDepth { deep = ["d": deep] }
        #expect(throws: DomainError.self) { try DocumentRules.validate(["d": deep], at: path) }
        #expect(DocumentRules.size(of: path, fields: ["ab": "xyz", "n": 1]) == 81)

        let stored: [String: DocumentValue] = ["a": ["b": 1, "c": 2], "s": "x", "keep": true]
        let changes: [String: DocumentValue] = ["a.b": 9, "s.t": 1, "new.deep.er": nil]
        let updated: [String: DocumentValue] = ["a": ["b": 9, "c": 2], "s": ["t": 1], "keep": true, "new": ["deep": ["er": nil]]]
        #expect(try DocumentRules.updating(stored, with: changes) == updated)
        #expect(throws: DomainError.self) { _ = try DocumentRules.updating(stored, with: ["a": 1, "a.b": 2]) }
        let merge: [String: DocumentValue] = ["a": ["c": 3, "d": [:]], "s": ["t": 1]]
        let merged: [String: DocumentValue] = ["a": ["b": 1, "c": 3, "d": [:]], "s": ["t": 1], "keep": true]
        #expect(DocumentRules.merging(stored, with: merge) == merged)
        #expect(DocumentRules.leafPaths(of: ["a": ["c": 3, "d": [:]], "s": 1]) == [["a", "c"], ["a", "d"], ["s"]])
        #expect(DocumentRules.owner(of: ["users", "u1", "contacts"]) == "u1" && DocumentRules.owner(of: ["users"]) == nil)
    }

    @Test("query evaluation: Firestore's comparisons, type order, missing fields, ties by path, limit")
    func evaluation() throws {
        let collection = try CollectionPath("users/u/things")
        func doc(_ id: String, _ data: [String: DocumentValue]) throws -> DocumentSnapshot {
            DocumentSnapshot(path: try collection.document(id), data: data)
        }
        let docs = [
            try doc("a", ["v": 2]), try doc("b", ["v": 2.0]), try doc("c", ["v": "2"]), try doc("d", ["v": nil]),
            try doc("e", ["v": .timestamp(Date(timeIntervalSince1970: 0))]), try doc("f", [:]), try doc("g", ["v": .double(.nan)]),
            DocumentSnapshot(path: try DocumentPath("users/u/other/x"), data: ["v": 2]),
        ]
        let all = DocumentQuery(collection)
        #expect(all.evaluate(docs).map(\.id) == ["a", "b", "c", "d", "e", "f", "g"])
        #expect(all.where("v", .equal, 2).evaluate(docs).map(\.id) == ["a", "b"])
        #expect(all.where("v", .greaterThan, 0).evaluate(docs).map(\.id) == ["a", "b"])
        #expect(all.where("v", .equal, nil).evaluate(docs).map(\.id) == ["d"])
        #expect(all.order(by: "v").evaluate(docs).map(\.id) == ["d", "g", "a", "b", "e", "c"])
        #expect(all.order(by: "v", descending: true).limit(3).evaluate(docs).map(\.id) == ["c", "e", "b"])
        #expect(throws: DomainError.self) { try all.limit(0).validate() }
        #expect(throws: DomainError.self) { try all.where("v", .in, 1).validate() }
        #expect(throws: DomainError.self) { try all.where("a..b", .equal, 1).validate() }
        #expect(DocumentStorageError(DomainError.invalidArgument("x")) == .invalidData)
    }
}
