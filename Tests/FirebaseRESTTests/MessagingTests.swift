import Foundation
import Testing

@testable import FirebaseREST

/// FCM HTTP v1 send and its error codes.
@Suite struct MessagingTests {
    func client(_ transport: any FirebaseHTTPTransport) -> FCMClient {
        FCMClient(projectID: "p", accessTokenProvider: StaticAccessTokenProvider("OAUTH"), options: options(transport))
    }

    @Test func sendWire() async throws {
        let transport = RecordingTransport(body: #"{"name":"projects/p/messages/0:123"}"#)
        let message = FCMMessage(
            target: .token("device-token"), notification: .init(title: "Check in", body: "Are you OK?"),
            data: ["kind": "reminder", "count": "3"],
            apns: .init(headers: ["apns-priority": "10", "apns-push-type": "alert"], payload: ["aps": ["sound": "default"]]),
            android: .init(priority: "HIGH", ttl: "3600s"))
        let name = try await client(transport).send(message)
        #expect(name == "projects/p/messages/0:123")
        let request = try #require(transport.last)
        #expect(request.method == .post)
        #expect(request.rawURL == "https://fcm.googleapis.com/v1/projects/p/messages:send")
        #expect(request.header("Authorization") == "Bearer OAUTH")
        #expect(request.header("Content-Type") == "application/json")
        let expected = try json(
            #"""
            {"message":{"token":"device-token","notification":{"title":"Check in","body":"Are you OK?"},
             "data":{"kind":"reminder","count":"3"},
             "apns":{"headers":{"apns-priority":"10","apns-push-type":"alert"},"payload":{"aps":{"sound":"default"}}},
             "android":{"priority":"HIGH","ttl":"3600s"}}}
            """#)
        #expect(try jsonBody(request) == expected)
    }

    @Test func topicAndCondition() async throws {
        let transport = RecordingTransport(body: #"{"name":"n"}"#)
        try await client(transport).send(FCMMessage(target: .topic("alerts"), data: ["a": "1"]))
        #expect(try jsonBody(transport.last) == ["message": ["topic": "alerts", "data": ["a": "1"]]])
        try await client(transport).send(FCMMessage(target: .condition("'a' in topics")), validateOnly: true)
        #expect(try jsonBody(transport.last) == ["message": ["condition": "'a' in topics"], "validate_only": true])
    }

    @Test(arguments: [
        (404, "NOT_FOUND", "UNREGISTERED", FCMError.Code.unregistered), (400, "INVALID_ARGUMENT", "INVALID_ARGUMENT", .invalidArgument),
        (403, "PERMISSION_DENIED", "SENDER_ID_MISMATCH", .senderIDMismatch), (429, "RESOURCE_EXHAUSTED", "QUOTA_EXCEEDED", .quotaExceeded),
        (503, "UNAVAILABLE", "UNAVAILABLE", .unavailable), (500, "INTERNAL", "INTERNAL", .internal),
        (401, "UNAUTHENTICATED", "THIRD_PARTY_AUTH_ERROR", .thirdPartyAuthError), (400, "INVALID_ARGUMENT", "NEW_CODE", .other("NEW_CODE")),
    ])
    func errorCodes(http: Int, status: String, code: String, expected: FCMError.Code) async throws {
        let body =
            #"{"error":{"code":\#(http),"message":"msg \#(code)","status":"\#(status)","details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"\#(code)"}]}}"#
        do {
            try await client(RecordingTransport(status: http, body: body)).send(FCMMessage(target: .token("t")))
            Issue.record("expected an error")
        } catch let error as FCMError {
            #expect(error.code == expected)
            #expect(error.status == FirebaseRPCStatus(rawValue: status))
            #expect(error.message == "msg \(code)")
            #expect(error.httpStatus == http)
        }
    }

    @Test func errorsWithoutDetails() async throws {
        await #expect(throws: FCMError(code: .unregistered, status: .notFound, message: "gone", httpStatus: 404)) {
            try await client(RecordingTransport(status: 404, body: #"{"error":{"code":404,"message":"gone","status":"NOT_FOUND"}}"#))
                .send(FCMMessage(target: .token("t")))
        }
        await #expect(throws: FCMError(code: .quotaExceeded, status: .resourceExhausted, message: "slow down", httpStatus: 429)) {
            try await client(RecordingTransport(status: 429, body: "slow down")).send(FCMMessage(target: .token("t")))
        }
        await #expect(throws: FirebaseDecodingError.self) {
            try await client(RecordingTransport(body: #"{"nam"#)).send(FCMMessage(target: .token("t")))
        }
    }

    @Test func sendIsNotRetried() async throws {
        let transport = RecordingTransport(status: 503, body: #"{"error":{"code":503,"message":"x","status":"UNAVAILABLE"}}"#)
        var opts = options(transport)
        opts.retryPolicy = FirebaseRetryPolicy(maxRetries: 3, sleep: { _ in })
        await #expect(throws: FCMError.self) {
            try await FCMClient(projectID: "p", accessTokenProvider: StaticAccessTokenProvider("T"), options: opts)
                .send(FCMMessage(target: .token("t")))
        }
        #expect(transport.requests.count == 1)
    }
}
