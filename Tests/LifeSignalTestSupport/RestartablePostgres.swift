import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalPostgres

#if canImport(Glibc)
    import Glibc
#endif

/// A PostgreSQL cluster of one test's own, which that test may stop and start again (outage
/// tests). It is made by `scripts/postgres-cluster` (which installs PostgreSQL if missing) on a
/// free loopback port, and removed by ``remove()``; the shared cluster of `scripts/test` is
/// never touched.
public final class RestartablePostgres: Sendable {
    /// `postgres://postgres@127.0.0.1:PORT/postgres`.
    public let url: String
    private let directory: String
    private let port: Int

    private static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    public static func create() async throws -> RestartablePostgres {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-pg-\(UUID().uuidString.prefix(8))").path
        let script = repository.appendingPathComponent("scripts/postgres-cluster").path
        let output = try await run([script, "start", directory])
        let url = output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = URLComponents(string: url)?.port else {
            throw TestEnvironmentError(description: "scripts/postgres-cluster printed no URL: \(output)")
        }
        return RestartablePostgres(url: url, directory: directory, port: port)
    }

    /// Runs `body` on a new cluster and removes the cluster afterwards, also when `body` throws.
    public static func with<T>(_ body: (RestartablePostgres) async throws -> T) async throws -> T {
        let cluster = try await create()
        do {
            let result = try await body(cluster)
            await cluster.remove()
            return result
        } catch {
            await cluster.remove()
            throw error
        }
    }

    private init(url: String, directory: String, port: Int) {
        self.url = url
        self.directory = directory
        self.port = port
    }

    /// Stops the server as an operator would (`pg_ctl stop -m fast`: sessions are terminated,
    /// open transactions roll back, committed ones are on disk), waiting until it is down.
    public func stop() async throws {
        _ = try await Self.run(try pgCtl(["-D", "\(directory)/data", "-m", "fast", "-w", "-t", "60", "stop"]))
    }

    /// Starts it again on the same port with the same settings, waiting until it accepts connections.
    public func start() async throws {
        let options =
            "-c listen_addresses=127.0.0.1 -p \(port) -c unix_socket_directories=\(directory) -c fsync=off "
            + "-c synchronous_commit=off -c full_page_writes=off -c max_connections=300"
        _ = try await Self.run(try pgCtl(["-D", "\(directory)/data", "-l", "\(directory)/server.log", "-w", "-t", "60", "-o", options, "start"]))
    }

    /// Stops the cluster and deletes its files.
    public func remove() async {
        _ = try? await Self.run([Self.repository.appendingPathComponent("scripts/postgres-cluster").path, "stop", directory])
    }

    /// A migrated backend on this cluster's `postgres` database, as ``TestDatabases/backend(_:testOTPs:clock:configure:)``
    /// makes one on the shared cluster.
    public func backend(clock: ManualClock = ManualClock(), maximumConnections: Int = 10) async throws -> TestBackend {
        let sms = RecordingSMSSender()
        var configuration = LifeSignalBackend.Configuration(jwtSecret: TestDatabases.secret, clock: .manual(clock), smsSender: sms, testOTPs: TestOTPs())
        configuration.passwordIterations = 1000
        let database = try await PostgresDatabase(url: url, maximumConnections: maximumConnections)
        return TestBackend(backend: try await LifeSignalBackend.open(database: database, configuration: configuration), clock: clock, sms: sms)
    }

    /// `pg_ctl` run as the cluster's owner (`postgres` when the tests run as root, as the script does).
    private func pgCtl(_ arguments: [String]) throws -> [String] {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        guard
            let bin = versions.sorted().reversed().map({ "/usr/lib/postgresql/\($0)/bin/pg_ctl" })
                .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else {
            throw TestEnvironmentError(description: "pg_ctl not found under /usr/lib/postgresql")
        }
        return getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--", bin] + arguments : [bin] + arguments
    }

    /// Runs a command to its end on a thread of its own (never blocking the cooperative pool)
    /// and returns its standard output; a non-zero exit throws with its standard error.
    ///
    /// `posix_spawn` and `waitpid`, not Foundation's `Process`: on Linux, `Process` learns that
    /// a child ended when a socket it shares with the child closes, and the PostgreSQL server
    /// that `pg_ctl start` leaves running inherits that socket, so `pg_ctl start` would never
    /// seem to end. Output goes to files for the same reason (a pipe would stay open too).
    private static func run(_ command: [String]) async throws -> String {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<String, any Error>) in
            Thread.detachNewThread {
                let base = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-cmd-\(UUID().uuidString)").path
                let outPath = base + ".out"
                let errPath = base + ".err"
                defer {
                    unlink(outPath)
                    unlink(errPath)
                }
                var actions = posix_spawn_file_actions_t()
                posix_spawn_file_actions_init(&actions)
                defer { posix_spawn_file_actions_destroy(&actions) }
                posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
                posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
                posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
                var argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
                defer { argv.forEach { free($0) } }
                // Nothing else of this process reaches the child, or the server `pg_ctl`
                // leaves running: an inherited pipe (the test runner's output) would stay open.
                for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
                    guard let fd = Int32(name), fd > 2 else { continue }
                    let flags = fcntl(fd, F_GETFD)
                    if flags >= 0 && flags & FD_CLOEXEC == 0 { posix_spawn_file_actions_addclose(&actions, fd) }
                }
                var pid: pid_t = 0
                let spawned = posix_spawn(&pid, command[0], &actions, nil, &argv, environ)
                guard spawned == 0 else {
                    continuation.resume(throwing: TestEnvironmentError(description: "cannot run \(command[0]): error \(spawned)"))
                    return
                }
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
                let out = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
                let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
                // Exited normally with 0 (the low seven bits hold a terminating signal).
                if status & 0x7f == 0 && (status >> 8) & 0xff == 0 {
                    continuation.resume(returning: out)
                } else {
                    continuation.resume(
                        throwing: TestEnvironmentError(
                            description: "\(command.joined(separator: " ")) failed (status \(status)): \(err)"))
                }
            }
        }
    }
}
