import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalServer
import LifeSignalTestSupport
import Testing

/// `ConnectionLimits` over real sockets: slow and silent connections are closed while others
/// are served, oversized heads get 431, broken chunked bodies 400, and one address cannot hold
/// more connections than its cap. Timeouts are short here; every bound a test waits for is
/// generous (these are checks that something happens, not of how fast).
@Suite("Connection limits")
struct ConnectionLimitTests {
    /// Short deadlines, distinct from each other, so a test can tell which one closed a connection.
    static func shortTimeouts(_ configuration: inout ServerConfiguration) {
        configuration.connectionLimits.headTimeout = .seconds(1)
        configuration.connectionLimits.bodyTimeout = .seconds(2)
        configuration.connectionLimits.idleTimeout = .seconds(8)
        configuration.connectionLimits.maxConnectionsPerAddress = 200
    }

    @Test("slow heads and silent connections are closed; /health is served meanwhile", arguments: Engine.allCases)
    func slowAndSilent(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend, configure: Self.shortTimeouts)
        defer { Task { await server.stop() } }

        // A head that never ends, a byte every 100 ms to each slow connection, until the server
        // answers or closes it. The first byte goes with the connection: a loaded machine can
        // start the sender later than the head timeout, and a connection that has sent nothing
        // is rightly closed without an answer.
        let head = Array("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8) + Array(repeating: UInt8(ascii: "a"), count: 10_000)
        let slow = try (0..<50).map { _ in
            let socket = try ConnectionTestSocket(port: server.port)
            socket.send([head[0]])
            return socket
        }
        let silent = try (0..<20).map { _ in try ConnectionTestSocket(port: server.port) }
        let sender = Task {
            var offset = 1
            while !Task.isCancelled, offset < head.count {
                for socket in slow where !socket.isClosed && socket.text.isEmpty { socket.send([head[offset]]) }
                offset += 1
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        defer { sender.cancel() }

        let health = try await server.request("GET", "/health")
        #expect(health.status == 200, "/health must be answered while 70 connections stall")

        for socket in slow {
            #expect(await socket.waitUntilClosed(), "a slow head must be cut off")
            #expect(socket.text.hasPrefix("HTTP/1.1 408 "), "a half-sent head is answered 408, got \(socket.text.prefix(40))")
        }
        for socket in silent {
            #expect(await socket.waitUntilClosed(), "a silent connection must be closed")
            #expect(socket.text.isEmpty, "a connection that sent nothing is closed without an answer")
        }
        #expect(try await server.request("GET", "/health").status == 200)
    }

    @Test("a keep-alive connection lives past the head timeout while idle, then is closed by the idle timeout")
    func idleKeepAlive() async throws {
        let test = try await TestDatabases.backend(.sqlite)
        let server = try await TestServer.start(test.backend, configure: Self.shortTimeouts)
        defer { Task { await server.stop() } }
        let socket = try ConnectionTestSocket(port: server.port)
        socket.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(await socket.waitFor("{\"status\":\"ok\"}").hasPrefix("HTTP/1.1 200 "))

        // Twice the head timeout later the idle connection is still usable (the idle timeout is 8 s).
        try await Task.sleep(for: .seconds(2))
        #expect(!socket.isClosed, "an idle keep-alive connection is governed by the idle timeout, not the head timeout")
        socket.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let second = await socket.waitFor("HTTP/1.1 200 ", within: .seconds(20)).components(separatedBy: "HTTP/1.1 200 ").count - 1
        #expect(second >= 1)
        #expect(await socket.waitUntilClosed(within: .seconds(40)), "an idle connection must be closed by the idle timeout")
    }

    @Test("a body that stops arriving gets 408 and the request never reaches the database")
    func slowBody() async throws {
        let test = try await TestDatabases.backend(.sqlite)
        let server = try await TestServer.start(test.backend, configure: Self.shortTimeouts)
        defer { Task { await server.stop() } }
        let before = try await test.backend.database.query("SELECT count(*) AS n FROM locations").first?.int("n")
        let socket = try ConnectionTestSocket(port: server.port)
        socket.send(
            "POST /rest/v1/locations HTTP/1.1\r\nHost: 127.0.0.1\r\napikey: \(server.serviceKey)\r\nAuthorization: Bearer \(server.serviceKey)\r\n"
                + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"name\":\"Half")
        #expect(await socket.waitUntilClosed(), "a body that stops must be cut off")
        #expect(socket.text.hasPrefix("HTTP/1.1 408 "), "got \(socket.text.prefix(40))")
        let after = try await test.backend.database.query("SELECT count(*) AS n FROM locations").first?.int("n")
        #expect(before == after)
    }

    @Test("an oversized head or request line gets 431; a large one within the limit is served", arguments: Engine.allCases)
    func oversizedHead(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)  // the default limit, 32 KiB
        defer { Task { await server.stop() } }

        let header = try ConnectionTestSocket(port: server.port)
        header.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: \(String(repeating: "a", count: 40_000))\r\n\r\n")
        #expect(await header.waitUntilClosed())
        #expect(header.text.hasPrefix("HTTP/1.1 431 "), "got \(header.text.prefix(40))")

        let many = try ConnectionTestSocket(port: server.port)
        let fields = (0..<1_500).map { "X-F\($0): 1\r\n" }.joined()
        many.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\(fields)\r\n")
        #expect(await many.waitUntilClosed())
        #expect(many.text.hasPrefix("HTTP/1.1 431 "), "got \(many.text.prefix(40))")

        let url = try ConnectionTestSocket(port: server.port)
        url.send("GET /health?pad=\(String(repeating: "b", count: 200_000)) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(await url.waitUntilClosed())
        #expect(url.text.hasPrefix("HTTP/1.1 431 "), "got \(url.text.prefix(40))")

        let within = try ConnectionTestSocket(port: server.port)
        within.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: \(String(repeating: "a", count: 20_000))\r\nConnection: close\r\n\r\n")
        #expect(await within.waitUntilClosed())
        #expect(within.text.hasPrefix("HTTP/1.1 200 "), "got \(within.text.prefix(40))")
    }

    @Test("a malformed chunked body gets 400 and writes nothing", arguments: Engine.allCases)
    func malformedChunked(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let before = try await test.backend.database.query("SELECT count(*) AS n FROM locations").first?.int("n")
        let head =
            "POST /rest/v1/locations HTTP/1.1\r\nHost: 127.0.0.1\r\napikey: \(server.serviceKey)\r\nAuthorization: Bearer \(server.serviceKey)\r\n"
            + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"

        let badSize = try ConnectionTestSocket(port: server.port)
        badSize.send(head + "ZZ\r\n{\"name\":\"x\"}\r\n0\r\n\r\n")
        #expect(await badSize.waitUntilClosed())
        #expect(badSize.text.hasPrefix("HTTP/1.1 400 "), "got \(badSize.text.prefix(40))")

        // A valid first chunk, then garbage: the route is already reading the body.
        let later = try ConnectionTestSocket(port: server.port)
        later.send(head + "5\r\n{\"nam\r\n")
        try await Task.sleep(for: .milliseconds(200))
        later.send("e\":\"x\"}\r\nnot-a-size\r\n")
        #expect(await later.waitUntilClosed())
        #expect(later.text.hasPrefix("HTTP/1.1 400 "), "got \(later.text.prefix(40))")

        let after = try await test.backend.database.query("SELECT count(*) AS n FROM locations").first?.int("n")
        #expect(before == after)
        #expect(try await server.request("GET", "/health").status == 200)
    }

    @Test("one address gets 429 past its cap of connections, and is served again once they close")
    func perAddressCap() async throws {
        let test = try await TestDatabases.backend(.sqlite)
        let server = try await TestServer.start(test.backend) { $0.connectionLimits.maxConnectionsPerAddress = 4 }
        defer { Task { await server.stop() } }

        // Each connection proves it was accepted (answered 200) before the next opens. The test
        // client's own pooled connection may hold one of the four places.
        var served: [ConnectionTestSocket] = []
        var refused: [ConnectionTestSocket] = []
        for _ in 0..<10 {
            let socket = try ConnectionTestSocket(port: server.port)
            socket.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let answer = await socket.waitFor("\r\n\r\n")
            if answer.hasPrefix("HTTP/1.1 200 ") { served.append(socket) } else { refused.append(socket) }
        }
        #expect(served.count <= 4 && served.count >= 2, "served \(served.count)")
        #expect(refused.count == 10 - served.count)
        for socket in refused {
            #expect(socket.text.hasPrefix("HTTP/1.1 429 "), "got \(socket.text.prefix(40))")
            #expect(socket.text.lowercased().contains("retry-after: 1"))
            #expect(await socket.waitUntilClosed())
        }
        served.removeAll()  // closes them
        refused.removeAll()

        // A new connection from the same address is served again once the server has seen the
        // others close.
        var healthy = false
        let deadline = ContinuousClock.now + .seconds(20)
        while !healthy, ContinuousClock.now < deadline {
            let socket = try ConnectionTestSocket(port: server.port)
            socket.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            healthy = await socket.waitFor("\r\n\r\n").hasPrefix("HTTP/1.1 200 ")
            if !healthy { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(healthy, "/health must be served once the connections close")
        #expect(try await server.request("GET", "/health").status == 200)
    }

    @Test("a Realtime WebSocket outlives the head and idle timeouts")
    func webSocketUnaffected() async throws {
        let test = try await TestDatabases.backend(.sqlite)
        let server = try await TestServer.start(test.backend) { configuration in
            configuration.connectionLimits.headTimeout = .seconds(1)
            configuration.connectionLimits.idleTimeout = .seconds(1)
        }
        defer { Task { await server.stop() } }
        let socket = try await Self.upgradedSocket(server)
        defer { Task { await socket.close() } }
        try await Task.sleep(for: .seconds(3))
        try socket.send(topic: "phoenix", event: "heartbeat", ref: "hb-2")
        #expect(try await socket.nextObject()["ref"] as? String == "hb-2")
    }

    /// A socket whose upgrade went through and answered a heartbeat. The upgrade request itself
    /// is bound by the 1 s head timeout, and a CI machine running the whole suite in parallel has
    /// been seen to take longer than that to read it ("WebSocket upgrade failed"): that is the
    /// timeout doing its job, so the test tries again. What it checks starts after the upgrade.
    static func upgradedSocket(_ server: TestServer) async throws -> RealtimeTestSocket {
        let deadline = ContinuousClock.now + .seconds(60)
        var attempts = 0
        while true {
            attempts += 1
            let socket = try await RealtimeTestSocket.connect(server, query: "apikey=\(server.anonKey)&vsn=1.0.0")
            try socket.send(topic: "phoenix", event: "heartbeat", ref: "hb-1")
            switch try await socket.next() {
            case .text(let text):
                #expect(text.contains("\"hb-1\""), "the first heartbeat's reply, got \(text)")
                return socket
            case .closed(let code, let reason):
                await socket.close()
                guard ContinuousClock.now < deadline, reason?.contains("upgrade failed") == true else {
                    throw TestEnvironmentError(description: "no upgrade after \(attempts) attempts: \(code) \(reason ?? "")")
                }
            }
        }
    }
}
