import Foundation
import Testing

@testable import FirebaseREST

/// `FirestoreEncoder` / `FirestoreDecoder` on app-shaped types.
@Suite struct FirestoreCodableTests {
    enum Status: String, Codable, Equatable { case ok, overdue }

    struct Nested: Codable, Equatable {
        var tags: [String]
        var scores: [String: Int]
    }

    struct Profile: Codable, Equatable {
        var name: String
        var age: Int
        var big: Int64
        var small: Int64
        var ratio: Double
        var active: Bool
        var checkedInAt: Date
        var avatar: Data
        var home: FirestoreGeoPoint
        var friend: FirestoreReference
        var status: Status
        var nickname: String?
        var nested: Nested
        var history: [Nested]
        var website: URL
    }

    let profile = Profile(
        name: "Ann", age: 42, big: .max, small: .min, ratio: 0.5, active: true,
        checkedInAt: Date(timeIntervalSince1970: 1_714_566_600.123456), avatar: Data([1, 2, 3]),
        home: FirestoreGeoPoint(latitude: 1.5, longitude: -2.5),
        friend: FirestoreReference(name: "projects/p/databases/(default)/documents/users/b"), status: .overdue,
        nickname: nil, nested: Nested(tags: ["a", "b"], scores: ["x": 1]),
        history: [Nested(tags: [], scores: [:])], website: URL(string: "https://example.com/a")!)

    @Test func encodesEveryKind() throws {
        let fields = try FirestoreEncoder().encode(profile)
        #expect(fields["name"] == "Ann")
        #expect(fields["age"] == .integer(42))
        #expect(fields["big"] == .integer(.max))
        #expect(fields["small"] == .integer(.min))
        #expect(fields["ratio"] == .double(0.5))
        #expect(fields["active"] == .boolean(true))
        #expect(fields["checkedInAt"] == .timestamp(profile.checkedInAt))
        #expect(fields["avatar"] == .bytes(Data([1, 2, 3])))
        #expect(fields["home"] == .geoPoint(profile.home))
        #expect(fields["friend"] == .reference(profile.friend.name))
        #expect(fields["status"] == "overdue")
        #expect(fields["nickname"] == .null)
        #expect(fields["nested"] == ["tags": ["a", "b"], "scores": ["x": 1]])
        #expect(fields["history"] == [["tags": [], "scores": [:]]])
        #expect(fields["website"] == "https://example.com/a")
    }

    @Test func roundTripsThroughTheWire() throws {
        let fields = try FirestoreEncoder().encode(profile)
        let json = try encodeJSONBody(fields)
        let back = try JSONDecoder().decode([String: FirestoreValue].self, from: json)
        #expect(try FirestoreDecoder().decode(Profile.self, from: back) == profile)
        var named = profile
        named.nickname = "Annie"
        #expect(try FirestoreDecoder().decode(Profile.self, from: try FirestoreEncoder().encode(named)) == named)
    }

    @Test func omitStrategyDropsNil() throws {
        let fields = try FirestoreEncoder(nilStrategy: .omit).encode(profile)
        #expect(fields["nickname"] == nil)
        #expect(try FirestoreDecoder().decode(Profile.self, from: fields) == profile)
    }

    @Test func decoderIsLenientOnlyWhereSafe() throws {
        struct Numbers: Codable, Equatable {
            var d: Double
            var i: Int
            var s: String
        }
        let fields: [String: FirestoreValue] = ["d": .integer(3), "i": .double(4), "s": .reference("projects/x")]
        #expect(try FirestoreDecoder().decode(Numbers.self, from: fields) == Numbers(d: 3, i: 4, s: "projects/x"))
        #expect(throws: DecodingError.self) {
            try FirestoreDecoder().decode(Numbers.self, from: ["d": 1, "i": .double(4.5), "s": "x"])
        }
        struct Tiny: Codable { var v: Int8 }
        #expect(throws: DecodingError.self) { try FirestoreDecoder().decode(Tiny.self, from: ["v": 300]) }
        #expect(throws: DecodingError.self) { try FirestoreDecoder().decode(Tiny.self, from: [:]) }
    }

    @Test func unsignedOverflowThrows() {
        struct Big: Codable { var v: UInt64 }
        #expect(throws: EncodingError.self) { try FirestoreEncoder().encode(Big(v: .max)) }
    }

    @Test func nonKeyedTopLevelIsRejected() throws {
        #expect(throws: EncodingError.self) { try FirestoreEncoder().encode([1, 2]) }
        #expect(try FirestoreEncoder().encodeValue([1, 2]) == [1, 2])
    }
}
