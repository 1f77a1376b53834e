import Foundation
import Testing

@testable import FirebaseREST

/// Callable functions: `{"data"}` in, `{"result"}` or `{"error"}` out.
@Suite struct FunctionsTests {
    func client(_ transport: any FirebaseHTTPTransport, token: String? = "ID") throws -> CallableFunctionsClient {
        try CallableFunctionsClient(
            projectID: "p", region: "europe-west1", tokenProvider: StaticIDTokenProvider(token), options: options(transport))
    }

    @Test func callWire() async throws {
        let transport = RecordingTransport(body: #"{"result":{"ok":true,"count":3}}"#)
        let result = try await client(transport).call("checkIn", data: ["note": "fine", "n": 1])
        let request = try #require(transport.last)
        #expect(request.method == .post)
        #expect(request.rawURL == "https://europe-west1-p.cloudfunctions.net/checkIn")
        #expect(request.header("Content-Type") == "application/json")
        #expect(request.header("Authorization") == "Bearer ID")
        #expect(try jsonBody(request) == ["data": ["note": "fine", "n": 1]])
        #expect(result == ["ok": true, "count": 3])
    }

    @Test func typedCallAndCustomBase() async throws {
        struct In: Encodable { var id: String }
        struct Out: Decodable, Equatable { var name: String }
        let transport = RecordingTransport(body: #"{"result":{"name":"Ann"}}"#)
        let functions = CallableFunctionsClient(
            baseURL: URL(string: "http://127.0.0.1:5001/demo/us-central1")!, tokenProvider: StaticIDTokenProvider(nil),
            options: options(transport))
        let out = try await functions.call("lookup", data: In(id: "u1"), as: Out.self)
        #expect(out == Out(name: "Ann"))
        #expect(transport.last?.rawURL == "http://127.0.0.1:5001/demo/us-central1/lookup")
        #expect(transport.last?.header("Authorization") == nil)
        #expect(try jsonBody(transport.last) == ["data": ["id": "u1"]])
        let wrong = RecordingTransport(body: #"{"result":{"other":1}}"#)
        await #expect(throws: FirebaseDecodingError.self) {
            _ = try await client(wrong).call("lookup", data: In(id: "u1"), as: Out.self)
        }
    }

    @Test func nullAndMissingResult() async throws {
        #expect(try await client(RecordingTransport(body: #"{"result":null}"#)).call("f") == .null)
        #expect(try await client(RecordingTransport(body: "{}")).call("f") == .null)
        let transport = RecordingTransport(body: "{}")
        _ = try await client(transport).call("f")
        #expect(try jsonBody(transport.last) == ["data": nil])
    }

    @Test func errorEnvelope() async throws {
        let transport = RecordingTransport(
            status: 400, body: #"{"error":{"status":"INVALID_ARGUMENT","message":"bad note","details":{"field":"note"}}}"#)
        await #expect(
            throws: CallableFunctionError(status: .invalidArgument, message: "bad note", details: ["field": "note"], httpStatus: 400)
        ) { _ = try await client(transport).call("f") }
        let unauthenticated = RecordingTransport(status: 401, body: #"{"error":{"status":"UNAUTHENTICATED","message":"Unauthenticated"}}"#)
        await #expect(throws: CallableFunctionError(status: .unauthenticated, message: "Unauthenticated", httpStatus: 401)) {
            _ = try await client(unauthenticated).call("f")
        }
    }

    @Test func badResponses() async throws {
        await #expect(throws: CallableFunctionError(status: .internal, message: "<html>crash</html>", httpStatus: 500)) {
            _ = try await client(RecordingTransport(status: 500, body: "<html>crash</html>")).call("f")
        }
        await #expect(throws: FirebaseDecodingError.self) { _ = try await client(RecordingTransport(body: "not json")).call("f") }
        await #expect(throws: FirebaseTransportError.self) { _ = try await client(FailingTransport()).call("f") }
        await #expect(throws: FirebaseTransportError.self) { _ = try await client(RecordingTransport()).call("") }
    }
}
