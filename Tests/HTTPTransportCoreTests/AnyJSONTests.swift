import Foundation
import Testing

@testable import HTTPTransportCore

/// The one JSON value both wire clients carry free-form payloads in.
@Suite struct AnyJSONTests {
    func decode(_ text: String) throws -> AnyJSON {
        try JSONDecoder().decode(AnyJSON.self, from: Data(text.utf8))
    }

    @Test func integersDoublesAndLargeIntegersKeepTheirKind() throws {
        #expect(try decode("1") == .integer(1))
        #expect(try decode("1.5") == .double(1.5))
        #expect(try decode("9223372036854775807") == .integer(Int(Int64.max)))
        let encoded = try JSONEncoder().encode(AnyJSON.array([.integer(1), .double(2.5), .integer(Int(Int64.min))]))
        #expect(String(decoding: encoded, as: UTF8.self) == "[1,2.5,-9223372036854775808]")
    }

    @Test func everyKindRoundTrips() throws {
        let value: AnyJSON = ["a": [1, "two", nil, true, 3.25], "b": ["nested": .object([:])]]
        let again = try JSONDecoder().decode(AnyJSON.self, from: JSONEncoder().encode(value))
        #expect(again == value)
        #expect(value["a"]?.arrayValue?.count == 5)
        #expect(value["b"]?["nested"] == .object([:]))
        #expect(value["missing"] == nil && AnyJSON.string("x")["a"] == nil)
    }

    @Test func convertsFromAndToCodableTypes() throws {
        struct Point: Codable, Equatable {
            var x: Int
            var label: String
        }
        let json = try AnyJSON(encoding: Point(x: 3, label: "p"))
        #expect(json == ["x": 3, "label": "p"])
        #expect(try json.decode(as: Point.self) == Point(x: 3, label: "p"))
        #expect(throws: DecodingError.self) { try AnyJSON.string("p").decode(as: Point.self) }
    }

    @Test func accessorsAnswerOnlyForTheirKind() {
        #expect(AnyJSON.integer(2).intValue == 2 && AnyJSON.integer(2).doubleValue == 2)
        #expect(AnyJSON.string("s").stringValue == "s" && AnyJSON.string("s").intValue == nil)
        #expect(AnyJSON.bool(true).boolValue == true && AnyJSON.null.isNil)
    }
}
