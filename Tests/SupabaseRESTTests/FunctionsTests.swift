import Foundation
import Testing

@testable import SupabaseREST

/// Edge Functions: wire shape (`POST /functions/v1/<name>`, headers, body) and error mapping.
@Suite struct FunctionsTests {
    @Test func invokeWithoutBodySendsNoContentType() async throws {
        let transport = RecordingTransport(body: "")
        try await makeClient(transport).functions.invoke("trigger-alert")
        let request = try #require(transport.last)
        #expect(request.method == .post)
        #expect(request.url.absoluteString == "https://project.supabase.co/functions/v1/trigger-alert")
        #expect(request.body == nil)
        #expect(
            request.headers.lowercasedDictionary == [
                "apikey": anonKey, "authorization": "Bearer \(anonKey)", "x-client-info": "supabase-swift/2.55.1",
            ])
        #expect(request.timeout == .seconds(5))
    }

    @Test func bodyTypesPickTheContentType() async throws {
        struct Payload: Encodable {
            var level: Int
            var at: Date
        }
        let transport = RecordingTransport(body: "")
        let functions = makeClient(transport).functions

        try await functions.invoke(
            "f", options: .init(body: Payload(level: 2, at: Date(timeIntervalSince1970: 0))))
        #expect(transport.last?.headers["Content-Type"] == "application/json")
        #expect(transport.last?.json == ["level": 2, "at": "1970-01-01T00:00:00.000Z"])

        try await functions.invoke("f", options: .init(body: "hello"))
        #expect(transport.last?.headers["Content-Type"] == "text/plain")
        #expect(transport.last?.body == Data("hello".utf8))

        try await functions.invoke("f", options: .init(body: Data([1, 2])))
        #expect(transport.last?.headers["Content-Type"] == "application/octet-stream")
        #expect(transport.last?.body == Data([1, 2]))

        try await functions.invoke(
            "f", options: .init(headers: ["Content-Type": "application/x-custom", "X-Extra": "1"], body: "x"))
        #expect(transport.last?.headers["Content-Type"] == "application/x-custom")
        #expect(transport.last?.headers["X-Extra"] == "1")
    }

    @Test func methodQueryAndRegion() async throws {
        let transport = RecordingTransport(body: "")
        try await makeClient(transport).functions.invoke(
            "reports/daily",
            options: .init(method: .get, query: [URLQueryItem(name: "day", value: "2024-06-05")], region: .euWest1))
        let request = try #require(transport.last)
        #expect(request.method == .get)
        #expect(request.path == "/functions/v1/reports/daily")
        #expect(request.queryItems == ["day=2024-06-05", "forceFunctionRegion=eu-west-1"])
        #expect(request.headers["x-region"] == "eu-west-1")
    }

    @Test func decodesJSONResponses() async throws {
        struct Reply: Decodable, Equatable {
            var ok: Bool
            var at: Date
        }
        let transport = RecordingTransport(body: #"{"ok":true,"at":"2024-06-05T12:00:00Z"}"#)
        let reply: Reply = try await makeClient(transport).functions.invoke("check-in")
        #expect(reply == Reply(ok: true, at: Date(timeIntervalSince1970: 1_717_588_800)))

        let text = try await makeClient(transport).functions.invoke("x") { data, response in
            "\(response.status):\(data.count)"
        }
        #expect(text == "200:39")
    }

    @Test func nonSuccessIsHTTPErrorWithRawBody() async throws {
        let body = #"{"error":"too soon"}"#
        let transport = RecordingTransport { _, _ in jsonResponse(429, body) }
        await #expect(throws: FunctionsError.httpError(code: 429, data: Data(body.utf8))) {
            try await makeClient(transport).functions.invoke("check-in")
        }
        // POST is never retried, even on a retryable status.
        #expect(transport.requests.count == 1)
    }

    @Test func relayHeaderIsRelayError() async throws {
        let transport = RecordingTransport { _, _ in
            HTTPResponse(status: 401, headers: ["x-relay-error": "true"], body: Data("{}".utf8))
        }
        await #expect(throws: FunctionsError.relayError) {
            try await makeClient(transport).functions.invoke("f")
        }
    }

    @Test func undecodableSuccessBodyIsTypedError() async throws {
        let transport = RecordingTransport(body: "not json")
        await #expect(throws: ResponseDecodingError.self) {
            let _: [String: Int] = try await makeClient(transport).functions.invoke("f")
        }
    }

    @Test func authorizationFollowsTheSessionAndKeyKind() async throws {
        let transport = RecordingTransport(body: "")
        let opaque = makeClient(transport, key: "sb_publishable_abc")
        try await opaque.functions.invoke("f")
        #expect(transport.last?.headers["Authorization"] == nil)
        #expect(transport.last?.headers["apikey"] == "sb_publishable_abc")

        try await opaque.auth.setSession(try makeSession(access: "user-jwt", expiresIn: 3600))
        try await opaque.functions.invoke("f")
        #expect(transport.last?.headers["Authorization"] == "Bearer user-jwt")
    }

    @Test func unencodableBodyIsReportedAtInvoke() async throws {
        let transport = RecordingTransport(body: "")
        await #expect(throws: FunctionsError.self) {
            try await makeClient(transport).functions.invoke("f", options: .init(body: Double.nan))
        }
        #expect(transport.requests.isEmpty)
    }
}
