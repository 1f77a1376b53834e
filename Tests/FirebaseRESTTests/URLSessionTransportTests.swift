import Foundation
import Testing

@testable import FirebaseREST

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The default transport over real sockets on 127.0.0.1: refused connections are network
/// errors and time limits hold to the millisecond scale, neither early nor late.
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

  func firestore(_ url: URL, timeout: Duration) -> FirestoreClient {
    FirestoreClient(
      projectID: "p", baseURL: url, tokenProvider: StaticIDTokenProvider(nil),
      options: FirebaseHTTPOptions(transport: FirebaseURLSessionTransport(), timeout: timeout, retryPolicy: .none))
  }

  @Test func aRefusedConnectionIsANetworkError() async throws {
    let closed = try LocalSocket(listening: false)
    await #expect {
      _ = try await firestore(closed.url, timeout: .seconds(10)).getDocument("a/b")
    } throws: { error in
      guard case FirebaseTransportError.network(let message) = error else { return false }
      return !message.isEmpty
    }
  }

  @Test(arguments: [300, 1500])
  func aServerThatNeverAnswersTimesOutOnTime(milliseconds: Int) async throws {
    let silent = try LocalSocket(listening: true)
    let limit = Duration.milliseconds(milliseconds)
    let started = ContinuousClock.now
    await #expect(throws: FirebaseTransportError.timedOut(after: limit)) {
      _ = try await firestore(silent.url, timeout: limit).getDocument("a/b")
    }
    let elapsed = ContinuousClock.now - started
    // Late means the configured timeout was ignored (URLSession's own is 60 s): 30 s bounds a
    // hang, not speed, since the full suite on two cores can hold a task back for seconds.
    #expect(elapsed >= limit - .milliseconds(10) && elapsed < limit + .seconds(30), "\(elapsed)")
  }
}
