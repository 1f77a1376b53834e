import Foundation
import RFC3339
import Testing

@testable import FirebaseREST

/// The typed value encoding, to and from JSON and to and from `Codable` types.
@Suite struct FirestoreValueTests {
    func wire(_ value: FirestoreValue) throws -> FirebaseJSON {
        try JSONDecoder().decode(FirebaseJSON.self, from: encodeJSONBody(value))
    }

    func roundTrip(_ value: FirestoreValue) throws -> FirestoreValue {
        try JSONDecoder().decode(FirestoreValue.self, from: encodeJSONBody(value))
    }

    @Test func everyKindOnTheWire() throws {
        let date = try #require(RFC3339.parse("2024-05-01T12:30:00.123456Z", .strict))
        #expect(try wire(.null) == ["nullValue": nil])
        #expect(try wire(.boolean(true)) == ["booleanValue": true])
        #expect(try wire(.integer(42)) == ["integerValue": "42"])
        #expect(try wire(.integer(.max)) == ["integerValue": "9223372036854775807"])
        #expect(try wire(.integer(.min)) == ["integerValue": "-9223372036854775808"])
        #expect(try wire(.double(1.5)) == ["doubleValue": 1.5])
        #expect(try wire(.timestamp(date)) == ["timestampValue": "2024-05-01T12:30:00.123456Z"])
        #expect(try wire(.string("hé")) == ["stringValue": "hé"])
        #expect(try wire(.bytes(Data([0, 1, 254, 255]))) == ["bytesValue": "AAH+/w=="])
        #expect(
            try wire(.reference("projects/p/databases/(default)/documents/a/b"))
                == ["referenceValue": "projects/p/databases/(default)/documents/a/b"])
        #expect(
            try wire(.geoPoint(.init(latitude: 48.85, longitude: 2.35)))
                == ["geoPointValue": ["latitude": 48.85, "longitude": 2.35]])
        #expect(try wire([1, "a"]) == ["arrayValue": ["values": [["integerValue": "1"], ["stringValue": "a"]]]])
        #expect(try wire(["k": ["n": nil]]) == ["mapValue": ["fields": ["k": ["mapValue": ["fields": ["n": ["nullValue": nil]]]]]]])
    }

    @Test func everyKindRoundTrips() throws {
        let date = try #require(RFC3339.parse("1969-12-31T23:59:59.999999Z", .strict))
        let values: [FirestoreValue] = [
            .null, .boolean(false), .integer(.max), .integer(.min), .double(-0.25), .double(.infinity), .timestamp(date),
            .string(""), .bytes(Data("hi".utf8)), .reference("projects/p/databases/(default)/documents/a/b"),
            .geoPoint(.init(latitude: -33.9, longitude: 151.2)),
            .array([.integer(1), .map(["x": .array([])])]), .map(["a": .map(["b": .map(["c": .integer(3)])])]),
        ]
        for value in values { #expect(try roundTrip(value) == value) }
        #expect(try roundTrip(.double(.nan)).isNaNDouble)
    }

    @Test func serverSpellings() throws {
        let decoded = try JSONDecoder().decode(
            FirestoreValue.self,
            from: Data(
                #"{"mapValue":{"fields":{"i":{"integerValue":"7"},"e":{"arrayValue":{}},"m":{"mapValue":{}},"g":{"geoPointValue":{"latitude":1}},"t":{"timestampValue":"2024-01-01T00:00:00Z"},"n":{"timestampValue":"2024-01-01T00:00:00.123456789Z"}}}}"#
                    .utf8))
        let t = try #require(RFC3339.parse("2024-01-01T00:00:00.000000Z", .strict))
        let n = try #require(RFC3339.parse("2024-01-01T00:00:00.123456Z", .strict))
        #expect(
            decoded
                == .map([
                    "i": 7, "e": .array([]), "m": .map([:]), "g": .geoPoint(.init(latitude: 1, longitude: 0)),
                    "t": .timestamp(t), "n": .timestamp(n),
                ]))
    }

    @Test func malformedValuesThrow() {
        for text in [
            #"{}"#, #"{"integerValue":"12x"}"#, #"{"integerValue":"9223372036854775808"}"#,
            #"{"stringValue":"a","booleanValue":true}"#, #"{"timestampValue":"yesterday"}"#, #"{"bytesValue":"@@"}"#,
        ] {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(FirestoreValue.self, from: Data(text.utf8)) }
        }
    }

    @Test func timestampsKeepMicroseconds() throws {
        let date = Date(timeIntervalSince1970: 1_714_566_600.123456)
        #expect(RFC3339.format(date, zone: .z) == "2024-05-01T12:30:00.123456Z")
        #expect(RFC3339.parse("2024-05-01T12:30:00.123456Z", .strict) == date)
        #expect(RFC3339.format(Date(timeIntervalSince1970: 0), zone: .z) == "1970-01-01T00:00:00.000000Z")
        #expect(RFC3339.parse("2024-05-01T14:30:00.5+02:00", .strict) == Date(timeIntervalSince1970: 1_714_566_600.5))
        #expect(RFC3339.format(Date(timeIntervalSince1970: -0.5), zone: .z) == "1969-12-31T23:59:59.500000Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: 951_782_400), zone: .z) == "2000-02-29T00:00:00.000000Z")
        #expect(RFC3339.parse("2024-13-01T00:00:00Z", .strict) == nil)
        #expect(RFC3339.parse("2024-05-01T12:30:00", .strict) == nil)
    }
}

extension FirestoreValue {
    var isNaNDouble: Bool {
        if case .double(let value) = self { return value.isNaN }
        return false
    }
}
