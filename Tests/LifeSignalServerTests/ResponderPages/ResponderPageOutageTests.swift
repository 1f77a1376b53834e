import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalServer
import LifeSignalTestSupport
import Testing

/// A responder link opened while PostgreSQL cannot be reached gets a page that says to try
/// again (503 with `Retry-After`), not a server error, and works again once the database is back.
@Suite("responder pages during a database outage")
struct ResponderPageOutageTests {
    @Test("PostgreSQL stopped: 503 with Retry-After and a page that names nobody; back: the link answers again")
    func outage() async throws {
        try await RestartablePostgres.with { cluster in
            let test = try await cluster.backend()
            let server = try await TestServer.start(test.backend) {
                $0.databaseUnavailableAfter = .seconds(3)
                $0.databaseStatementDeadline = .seconds(10)
            }
            defer { Task { await server.stop() } }
            let links = test.backend.responderLinks(baseURL: server.baseURL)
            // Signed, for an alert that does not exist: 410 while the database answers.
            let path = links.url(alertID: UUID(), responder: UserID(UUID()), now: test.clock.now).path
            let url = URL(string: "http://127.0.0.1:\(server.port)\(path)")!
            #expect(try await BareHTTP.send("GET", url).status == 410)
            try await cluster.stop()
            let down = try await BareHTTP.send("GET", url)
            #expect(down.status == 503, "\(down.text)")
            #expect(down.header("Retry-After") != nil)
            #expect(down.text.contains("LifeSignal cannot answer right now"))
            #expect(down.header("Content-Security-Policy")?.contains("default-src 'none'") == true)
            try await cluster.start()
            // The pool reconnects on its own; a bound against a hang, not a speed check.
            let deadline = ContinuousClock.now + .seconds(60)
            var status = 0
            while ContinuousClock.now < deadline {
                status = try await BareHTTP.send("GET", url).status
                if status == 410 { break }
                try await Task.sleep(for: .milliseconds(200))
            }
            #expect(status == 410)
        }
    }
}
