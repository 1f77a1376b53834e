import Foundation
import Testing

@testable import FirebaseREST

/// Error bodies, bad responses and polling.
@Suite struct FirestoreErrorTests {
    func client(_ transport: any FirebaseHTTPTransport, timeout: Duration = .seconds(5)) -> FirestoreClient {
        FirestoreClient(projectID: "p", tokenProvider: StaticIDTokenProvider("ID"), options: options(transport, timeout: timeout))
    }

    @Test(arguments: [
        (404, "NOT_FOUND", FirebaseRPCStatus.notFound), (403, "PERMISSION_DENIED", .permissionDenied),
        (401, "UNAUTHENTICATED", .unauthenticated), (400, "FAILED_PRECONDITION", .failedPrecondition),
        (409, "ALREADY_EXISTS", .alreadyExists), (409, "ABORTED", .aborted), (429, "RESOURCE_EXHAUSTED", .resourceExhausted),
        (503, "UNAVAILABLE", .unavailable), (400, "INVALID_ARGUMENT", .invalidArgument), (418, "TEAPOT", .other("TEAPOT")),
    ])
    func statuses(http: Int, raw: String, status: FirebaseRPCStatus) async throws {
        let transport = RecordingTransport(
            status: http, body: #"{"error":{"code":\#(http),"message":"went wrong: \#(raw)","status":"\#(raw)"}}"#)
        await #expect(throws: FirestoreError(status: status, message: "went wrong: \(raw)", httpStatus: http)) {
            _ = try await client(transport).createDocument(in: "c", id: "d", fields: [:])
        }
    }

    @Test func arrayWrappedErrorFromRunQuery() async throws {
        let transport = RecordingTransport(
            status: 400,
            body: #"[{"error":{"code":400,"message":"The query requires an index. You can create it here: https://console","status":"FAILED_PRECONDITION"}}]"#)
        do {
            _ = try await client(transport).runQuery(FirestoreQuery(collection: "c").where("a", .equal, 1).order(by: "b"))
            Issue.record("expected an error")
        } catch let error as FirestoreError {
            #expect(error.status == .failedPrecondition)
            #expect(error.message.contains("https://console"))
        }
    }

    @Test func missingDocumentHelpers() async throws {
        let transport = RecordingTransport(status: 404, body: #"{"error":{"code":404,"message":"Document not found","status":"NOT_FOUND"}}"#)
        #expect(try await client(transport).documentIfExists("a/b") == nil)
    }

    @Test func nonJSONErrorKeepsBodyAndGuessesStatus() async throws {
        let transport = RecordingTransport(status: 502, body: "<html>upstream</html>")
        await #expect(throws: FirestoreError(status: .internal, message: "<html>upstream</html>", httpStatus: 502)) {
            _ = try await client(transport).getDocument("a/b")
        }
    }

    @Test func truncatedAndWrongShapedSuccess() async throws {
        let truncated = RecordingTransport(body: #"{"name":"projects/p/databases/(default)/documents/a/b","fields":{"n":{"integ"#)
        await #expect(throws: FirebaseDecodingError.self) { _ = try await client(truncated).getDocument("a/b") }
        let object = RecordingTransport(body: #"{"document":{}}"#)
        await #expect(throws: FirebaseDecodingError.self) { _ = try await client(object).runQuery(FirestoreQuery(collection: "c")) }
        let html = RecordingTransport(body: "<html>")
        await #expect(throws: FirebaseDecodingError.self) { _ = try await client(html).batchGet(["a/b"]) }
    }

    @Test func hangingServerTimesOut() async throws {
        await #expect(throws: FirebaseTransportError.timedOut(after: .milliseconds(100))) {
            _ = try await client(HangingTransport(), timeout: .milliseconds(100)).runQuery(FirestoreQuery(collection: "c"))
        }
    }

    @Test func documentPollingYieldsOnlyChanges() async throws {
        let bodies = [
            #"{"name":"projects/p/databases/(default)/documents/a/b","fields":{"n":{"integerValue":"1"}},"updateTime":"1"}"#,
            #"{"name":"projects/p/databases/(default)/documents/a/b","fields":{"n":{"integerValue":"1"}},"updateTime":"1"}"#,
            #"{"name":"projects/p/databases/(default)/documents/a/b","fields":{"n":{"integerValue":"2"}},"updateTime":"2"}"#,
        ]
        let transport = RecordingTransport { _, index in
            index < bodies.count
                ? response(200, bodies[index]) : response(404, #"{"error":{"code":404,"message":"gone","status":"NOT_FOUND"}}"#)
        }
        var iterator = client(transport).listenDocument("a/b", interval: .milliseconds(1), sleep: { _ in await Task.yield() })
            .makeAsyncIterator()
        #expect(try await iterator.next()??.fields["n"] == 1)
        #expect(try await iterator.next()??.fields["n"] == 2)
        let gone = try await iterator.next()
        #expect(gone == .some(nil))
        #expect(transport.requests.count >= 4)
    }

    @Test func queryPollingEndsWithTheError() async throws {
        let transport = RecordingTransport { _, index in
            index == 0 ? response(200, #"[{"readTime":"t"}]"#) : response(403, #"{"error":{"code":403,"message":"no","status":"PERMISSION_DENIED"}}"#)
        }
        let stream = client(transport).listenQuery(FirestoreQuery(collection: "c"), interval: .milliseconds(1), sleep: { _ in })
        var seen: [[FirestoreDocument]] = []
        do {
            for try await documents in stream { seen.append(documents) }
            Issue.record("expected an error")
        } catch let error as FirestoreError {
            #expect(error.status == .permissionDenied)
        }
        #expect(seen == [[]])
    }
}
