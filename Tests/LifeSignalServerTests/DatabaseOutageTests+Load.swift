import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Clients calling the server at a steady pace, recording every answer: status, time taken,
/// `Retry-After` and body. Inserts into `locations` are named `load c<client> n<n>`, so the
/// Realtime subscriber's events can be matched with the inserts that were acknowledged.
final class Load: @unchecked Sendable {
    struct Answer: Sendable {
        var route: String
        var status: Int
        var seconds: Double
        var retryAfter: String?
        var body: String
        var started: ContinuousClock.Instant
        var finished: ContinuousClock.Instant

        /// The body is the error each API's own clients parse.
        var shapeIsRight: Bool {
            guard let object = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] else { return false }
            switch route {
            case "rest":  // PostgREST: all four keys, always
                return object["code"] as? String == "PGRST001" && object["message"] is String
                    && object.keys.contains("details") && object.keys.contains("hint")
            case "function":
                return object["code"] as? String == "unavailable" && object["message"] is String
            case "auth":  // GoTrue's unversioned shape
                return object["code"] as? Int == 503 && object["error_code"] is String && object["msg"] is String
            default:
                return false
            }
        }
    }

    struct Insert: Sendable, Hashable {
        var client: Int
        var n: Int
        var name: String { "load c\(client) n\(n)" }
    }

    let server: TestServer
    private let session: URLSession
    private let lock = NSLock()
    private var recorded: [Answer] = []
    private var inserted: [Insert] = []
    private var stopping = false

    init(server: TestServer) {
        self.server = server
        let configuration = URLSessionConfiguration.ephemeral
        // Ten clients at once, never queued behind each other in the client.
        configuration.httpMaximumConnectionsPerHost = 64
        configuration.timeoutIntervalForRequest = 120
        session = URLSession(configuration: configuration)
    }

    var answers: [Answer] { lock.withLock { recorded } }
    var acknowledged: [Insert] { lock.withLock { inserted } }
    func finish() { lock.withLock { stopping = true } }
    private var isStopping: Bool { lock.withLock { stopping } }

    /// Each client, until ``finish()``: a check-in (once per user), an insert, its user read
    /// through `/auth/v1/user`, an anonymous page of locations; a pause between rounds keeps
    /// every user under the rate limits.
    func run(users: [[IssuedSession]]) async {
        await withTaskGroup(of: Void.self) { group in
            for (client, sessions) in users.enumerated() {
                group.addTask {
                    var n = 0
                    while !self.isStopping {
                        let user = sessions[n % sessions.count]
                        if n < sessions.count {
                            _ = await self.send("function", "POST", "/functions/v1/check-in", bearer: user.accessToken)
                        }
                        await self.insert(client: client, n: n, user: user)
                        _ = await self.send("auth", "GET", "/auth/v1/user", bearer: user.accessToken)
                        _ = await self.send("rest", "GET", "/rest/v1/locations?select=id,name&limit=5")
                        n += 1
                        try? await Task.sleep(for: .milliseconds(300))
                    }
                }
            }
        }
    }

    func insert(client: Int, n: Int, user: IssuedSession) async {
        let insert = Insert(client: client, n: n)
        let body = try? JSONSerialization.data(withJSONObject: [
            "name": insert.name, "slug": "load-c\(client)-n\(n)", "created_by": user.user.id.description,
        ])
        let answer = await send("rest", "POST", "/rest/v1/locations", bearer: user.accessToken, body: body, prefer: "return=minimal")
        if answer.status == 201 { lock.withLock { inserted.append(insert) } }
    }

    func send(_ route: String, _ method: String, _ path: String, bearer: String? = nil, body: Data? = nil, prefer: String? = nil) async -> Answer {
        var request = URLRequest(url: server.baseURL)
        request.url = URL(string: path, relativeTo: server.baseURL)
        request.httpMethod = method
        request.setValue(server.anonKey, forHTTPHeaderField: "apikey")
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        if let prefer { request.setValue(prefer, forHTTPHeaderField: "Prefer") }
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let started = ContinuousClock.now
        var answer = Answer(route: route, status: -1, seconds: 0, retryAfter: nil, body: "", started: started, finished: started)
        do {
            let (data, response) = try await session.data(for: request)
            if let http = response as? HTTPURLResponse {
                answer.status = http.statusCode
                answer.retryAfter = http.value(forHTTPHeaderField: "Retry-After")
            }
            answer.body = String(decoding: data, as: UTF8.self)
        } catch {
            answer.body = "\(error)"
        }
        answer.finished = .now
        answer.seconds = started.duration(to: answer.finished).seconds
        let recordedAnswer = answer
        lock.withLock { recorded.append(recordedAnswer) }
        return answer
    }
}

/// `GET /ready` every quarter second, with the time of each answer.
final class ReadyProbe: @unchecked Sendable {
    struct Answer: Sendable {
        var at: ContinuousClock.Instant
        var status: Int
    }

    let server: TestServer
    private let lock = NSLock()
    private var recorded: [Answer] = []

    private var stopping = false

    init(server: TestServer) { self.server = server }

    var answers: [Answer] { lock.withLock { recorded } }

    /// Ends ``run()`` after its current request. Not by cancelling its task: cancelling a task
    /// inside `URLSession.data(for:)` just as the answer arrives deadlocks FoundationNetworking
    /// on Linux (the cancellation handler waits for the session's queue while holding the
    /// task's status lock, which that queue needs to resume the task). A clean-clone CI run hung
    /// there for good.
    func finish() { lock.withLock { stopping = true } }
    private var isStopping: Bool { lock.withLock { stopping } }

    func run() async {
        while !isStopping {
            let status = (try? await server.request("GET", "/ready", apiKey: .some(nil)).status) ?? -1
            let answer = Answer(at: .now, status: status)
            lock.withLock { recorded.append(answer) }
            try? await Task.sleep(for: .milliseconds(250))
        }
    }
}

/// One Realtime subscriber to every insert into `locations` (as `service_role`, which sees
/// every row), recording the names in the order they arrive.
final class RealtimeCollector: @unchecked Sendable {
    private let socket: RealtimeTestSocket
    private let lock = NSLock()
    private var received: [String] = []
    private var reader: Task<Void, Never>?
    private var heartbeat: Task<Void, Never>?

    private init(socket: RealtimeTestSocket) { self.socket = socket }

    var names: [String] { lock.withLock { received } }

    static func join(_ server: TestServer) async throws -> RealtimeCollector {
        let socket = try await RealtimeTestSocket.connect(server, query: "apikey=\(server.anonKey)&vsn=1.0.0")
        let reply = try await RealtimeTests.join(socket, topic: "realtime:load", table: "locations", event: "INSERT", token: server.serviceKey)
        try #require(reply["status"] as? String == "ok", "join refused: \(reply)")
        let collector = RealtimeCollector(socket: socket)
        collector.start()
        return collector
    }

    private func start() {
        let socket = self.socket
        reader = Task {
            while !Task.isCancelled {
                guard let frame = try? await socket.nextObject(timeout: .seconds(120)) else { return }
                guard let data = RealtimeTests.change(frame), let record = data["record"] as? [String: any Sendable],
                    let name = record["name"] as? String
                else { continue }
                self.lock.withLock { self.received.append(name) }
            }
        }
        heartbeat = Task {
            var ref = 0
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(5))
                ref += 1
                try? socket.send(topic: "phoenix", event: "heartbeat", ref: "hb-\(ref)")
            }
        }
    }

    /// Waits (up to 30 s, a bound against a hang) until every acknowledged insert arrived, then
    /// checks: each exactly once, and each writer's inserts in the order it made them.
    func expectDelivered(_ acknowledged: [Load.Insert]) async throws {
        let expected = Set(acknowledged.map(\.name))
        let deadline = ContinuousClock.now + .seconds(30)
        while !expected.isSubset(of: Set(names)), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        let names = self.names
        let missing = expected.subtracting(names)
        #expect(missing.isEmpty, "\(missing.count) of \(expected.count) acknowledged inserts never reached the subscriber: \(missing.sorted().prefix(10))")
        var seen: Set<String> = []
        let duplicates = names.filter { !seen.insert($0).inserted }
        #expect(duplicates.isEmpty, "delivered twice: \(duplicates.prefix(10))")
        var last: [Int: Int] = [:]
        for name in names {
            let parts = name.split(separator: " ")
            guard parts.count == 3, let client = Int(parts[1].dropFirst()), let n = Int(parts[2].dropFirst()) else { continue }
            #expect((last[client] ?? -1) < n, "client \(client): n\(n) arrived after n\(last[client] ?? -1)")
            last[client] = n
        }
    }

    func close() async {
        reader?.cancel()
        heartbeat?.cancel()
        await socket.close()
    }
}
