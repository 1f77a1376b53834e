import Foundation
import Testing

@testable import SupabaseREST

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The client over the default transport and real sockets on 127.0.0.1: a refused connection
/// and a server that accepts but never answers both become each service's typed error,
/// promptly (the transport itself is tested in HTTPTransportCoreTests).
@Suite struct URLSessionTransportTests {
    /// A TCP socket bound to a free port on 127.0.0.1; listening (the kernel completes
    /// connections into its backlog, nobody ever reads) or not (connections are refused).
    final class LocalSocket {
        let descriptor: Int32
        let port: Int

        init(listening: Bool) throws {
            #if canImport(Glibc)
                let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #else
                let fd = socket(AF_INET, SOCK_STREAM, 0)
            #endif
            guard fd >= 0 else { throw POSIXError(.EMFILE) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = 0
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                    bind(fd, generic, length) == 0 && getsockname(fd, generic, &length) == 0
                }
            }
            guard bound, !listening || listen(fd, 16) == 0 else {
                close(fd)
                throw POSIXError(.EADDRINUSE)
            }
            descriptor = fd
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

        deinit { close(descriptor) }
    }

    func client(_ url: URL, timeout: Duration) -> SupabaseClient {
        SupabaseClient(
            supabaseURL: url, supabaseKey: "k",
            options: .init(global: .init(transport: URLSessionTransport(), retryPolicy: .none, timeout: timeout), functions: .init(timeout: timeout)))
    }

    @Test func aRefusedConnectionIsANetworkError() async throws {
        let closed = try LocalSocket(listening: false)
        let client = client(closed.url, timeout: .seconds(10))
        await #expect {
            try await client.from("t").select().execute()
        } throws: { error in
            guard case TransportError.network(let message) = error else { return false }
            return !message.isEmpty
        }
        await #expect {
            try await client.auth.signIn(email: "a@b.c", password: "pw")
        } throws: { error in
            guard case AuthError.transport(.network) = error else { return false }
            return true
        }
    }

    @Test func aServerThatNeverAnswersTimesOutOnTime() async throws {
        let silent = try LocalSocket(listening: true)
        let client = client(silent.url, timeout: .milliseconds(300))
        let started = ContinuousClock.now
        await #expect(throws: TransportError.timedOut(after: .milliseconds(300))) {
            try await client.functions.invoke("check-in")
        }
        await #expect(throws: TransportError.timedOut(after: .milliseconds(300))) {
            try await client.storage.from("b").download(path: "x")
        }
        let elapsed = ContinuousClock.now - started
        // Neither early (Linux Foundation would give up at once on a sub-second interval) nor late.
        // Late means the configured timeout was ignored (URLSession's own is 60 s): 30 s bounds a
        // hang, not speed, since the full suite on two cores can hold a task back for seconds.
        #expect(elapsed >= .milliseconds(590) && elapsed < .seconds(30), "\(elapsed)")
    }
}
