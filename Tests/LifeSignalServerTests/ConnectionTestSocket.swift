import Foundation
import LifeSignalTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A bare TCP connection to the test server, for what no HTTP client will send: a head a byte
/// at a time, nothing at all, an oversized head, a broken chunked body. Every call is
/// non-blocking, so many of these live side by side without holding a cooperative thread.
final class ConnectionTestSocket: @unchecked Sendable {
    private let descriptor: Int32
    private let lock = NSLock()
    private var received: [UInt8] = []
    private var peerClosed = false

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(port: Int) throws {
        #if canImport(Glibc)
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            descriptor = socket(AF_INET, SOCK_STREAM, 0)
            var noSignal: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
        #endif
        guard descriptor >= 0 else { throw Failure(description: "socket() failed: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(descriptor)
            throw Failure(description: "connect() failed: \(errno)")
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    deinit { close(descriptor) }

    /// Sends what the socket takes now; `false` once the server has closed.
    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
        #else
            let flags: Int32 = 0
        #endif
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { systemSend(descriptor, $0.baseAddress, $0.count, flags) }
            if sent > 0 {
                offset += sent
                continue
            }
            if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                usleep(1_000)
                continue
            }
            return false
        }
        return true
    }

    /// Reads whatever has arrived, without waiting; true once the server closed (or reset).
    @discardableResult
    func poll() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !peerClosed {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received += buffer[0..<count]
            } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) {
                peerClosed = true
            } else {
                break
            }
        }
        return peerClosed
    }

    var isClosed: Bool { poll() }

    /// What the server sent so far, as text.
    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: received, as: UTF8.self)
    }

    /// Waits (polling, off no thread) until the server closes or `bound` passes; a bound
    /// against a hang, not a speed check.
    func waitUntilClosed(within bound: Duration = .seconds(20)) async -> Bool {
        let deadline = ContinuousClock.now + bound
        while ContinuousClock.now < deadline {
            if poll() { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return poll()
    }

    /// Waits until the server's text contains `marker` (a whole answer has arrived), the
    /// server closes, or `bound` passes.
    func waitFor(_ marker: String, within bound: Duration = .seconds(20)) async -> String {
        let deadline = ContinuousClock.now + bound
        while ContinuousClock.now < deadline {
            let closed = poll()
            if text.contains(marker) || closed { break }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return text
    }
}

#if canImport(Glibc)
    private func systemSend(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
        Glibc.send(fd, buffer, count, flags)
    }
#else
    private func systemSend(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
        Darwin.send(fd, buffer, count, flags)
    }
#endif

extension ConnectionTestSocket {
    /// Sends one request on a fresh connection (`Connection: close`, `Content-Length`), and
    /// returns the answer's status and body once the server closes; `nil` when no HTTP answer
    /// came. `apiKey` as ``TestServer/request(_:_:apiKey:bearer:headers:body:)`` takes it: by
    /// default the anon key, `.some(nil)` none.
    ///
    /// For what libcurl under URLSession will not do: send some long URLs, or, under the whole
    /// suite, finish a small upload (the server then answers 408 at its body timeout).
    static func exchange(
        _ method: String, _ path: String, server: TestServer, apiKey: String?? = .none, bearer: String? = nil,
        headers: [String: String] = [:], body: Data? = nil
    ) async -> (status: Int, body: String)? {
        guard let socket = try? ConnectionTestSocket(port: server.port) else { return nil }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        let key: String? =
            switch apiKey {
            case .none: server.anonKey
            case .some(let value): value
            }
        if let key { head += "apikey: \(key)\r\n" }
        if let bearer { head += "Authorization: Bearer \(bearer)\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        let body = body ?? Data()
        head += "Content-Length: \(body.count)\r\n\r\n"
        guard socket.send(Array(head.utf8) + Array(body)) else { return nil }
        _ = await socket.waitUntilClosed()
        let text = socket.text
        guard text.hasPrefix("HTTP/1.1 "), let status = Int(text.dropFirst(9).prefix(3)) else { return nil }
        let answer = text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? ""
        return (status, answer)
    }
}
