import Foundation
import Testing

@testable import HTTPTransportCore

/// The default transport over real sockets on 127.0.0.1: a real answer is read whole, and a
/// refused connection, a server that accepts but never answers, and a cancelled caller all
/// become the typed outcome, promptly.
@Suite struct URLSessionTransportTests {
    func send(_ request: HTTPRequest, timeout: Duration = .seconds(10)) async throws -> HTTPResponse {
        try await pipeline(URLSessionTransport(), timeout: timeout).send(request)
    }

    @Test func anAnswerComesBackWithItsStatusHeadersAndBody() async throws {
        let server = try LocalSocket(listening: true)
        server.answerOnce(
            with: "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nX-Request-Id: r1\r\n"
                + "Content-Length: 11\r\nConnection: close\r\n\r\n{\"ok\":true}")
        let sent = HTTPRequest(
            method: .post, url: server.url.appendingPathComponent("items"),
            headers: ["Content-Type": "application/json", "Authorization": "Bearer t"], body: Data(#"{"n":1}"#.utf8))
        let response = try await send(sent)
        #expect(response.status == 201)
        #expect(response.header("content-type") == "application/json")
        #expect(response.header("x-request-id") == "r1")
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"ok":true}"#)

        let request = try #require(server.request)
        #expect(request.hasPrefix("POST /items HTTP/1.1\r\n"), "\(request)")
        #expect(request.lowercased().contains("authorization: bearer t"))
        #expect(request.hasSuffix(#"{"n":1}"#))
    }

    @Test func aRefusedConnectionIsANetworkError() async throws {
        let closed = try LocalSocket(listening: false)
        await #expect {
            _ = try await send(HTTPRequest(method: .get, url: closed.url))
        } throws: { error in
            guard case TransportError.network(let message) = error else { return false }
            return !message.isEmpty
        }
    }

    /// Neither early (Linux Foundation gives up at once on a sub-second interval and truncates
    /// 1.5 s to 1 s) nor late (URLSession's own limit is 60 s).
    @Test(arguments: [300, 1500])
    func aServerThatNeverAnswersTimesOutOnTime(milliseconds: Int) async throws {
        let silent = try LocalSocket(listening: true)
        let limit = Duration.milliseconds(milliseconds)
        let started = ContinuousClock.now
        await #expect(throws: TransportError.timedOut(after: limit)) {
            _ = try await send(HTTPRequest(method: .get, url: silent.url), timeout: limit)
        }
        let elapsed = ContinuousClock.now - started
        // 30 s bounds a hang, not speed: the full suite on two cores can hold a task back for seconds.
        #expect(elapsed >= limit - .milliseconds(10) && elapsed < limit + .seconds(30), "\(elapsed)")
    }

    /// The exchange itself is never cancelled (FoundationNetworking can trap when a cancel races
    /// a completion), but the caller is released at once.
    @Test func aCancelledCallerStopsWaitingAtOnce() async throws {
        let silent = try LocalSocket(listening: true)
        let transport = URLSessionTransport()
        let request = HTTPRequest(method: .get, url: silent.url.appendingPathComponent("slow"), timeout: .seconds(30))
        let waiting = Task { try await transport.send(request) }
        try await Task.sleep(for: .milliseconds(200))
        let started = ContinuousClock.now
        waiting.cancel()
        await #expect(throws: CancellationError.self) { _ = try await waiting.value }
        #expect(ContinuousClock.now - started < .seconds(30), "a bound against a hang")
    }
}
