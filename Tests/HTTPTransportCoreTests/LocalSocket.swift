import Foundation

@testable import HTTPTransportCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP socket bound to a free port on 127.0.0.1; listening (the kernel completes
/// connections into its backlog, nobody reads unless ``answerOnce(with:)`` is called) or not
/// (connections are refused).
final class LocalSocket: @unchecked Sendable {
    let descriptor: Int32
    let port: Int
    private let received = LockedValue<Data?>(nil)

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

    /// The bytes of the one request ``answerOnce(with:)`` read, once it has answered.
    var request: String? { received.value.map { String(decoding: $0, as: UTF8.self) } }

    /// Accepts one connection on a thread of its own (blocking calls must stay off the
    /// cooperative pool), reads one request (head, then `Content-Length` bytes of body),
    /// writes `response` verbatim and closes.
    func answerOnce(with response: String) {
        let listener = descriptor
        let thread = Thread { [received] in
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            defer { close(connection) }
            var bytes = Data()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !Self.isComplete(bytes) {
                let count = read(connection, &buffer, buffer.count)
                guard count > 0 else { break }
                bytes.append(contentsOf: buffer[0..<count])
            }
            received.withValue { $0 = bytes }
            let reply = Array(response.utf8)
            _ = reply.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
        }
        thread.start()
    }

    private static func isComplete(_ bytes: Data) -> Bool {
        guard let end = bytes.range(of: Data("\r\n\r\n".utf8)) else { return false }
        let head = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).lowercased()
        let length =
            head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        return bytes.count - end.upperBound >= length
    }

    deinit { close(descriptor) }
}
