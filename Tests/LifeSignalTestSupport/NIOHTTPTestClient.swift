import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A small HTTP/1.1 client on SwiftNIO, for tests that put load on the server.
///
/// URLSession on Linux (libcurl) was seen to stall an upload under the full suite, and the
/// server then rightly answered 408 at its body timeout: the test could not tell its client's
/// fault from the server's. This client writes the whole request at once on a connection of
/// its own and reads the answer to its end, so a 408 here is the server's doing.
public enum NIOHTTPTestClient {
    public struct Reply: Sendable {
        public let status: Int
        /// Header names in lower case.
        public let headers: [String: String]
        public let body: Data

        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Sends one request to `127.0.0.1:port` on a new connection (`Connection: close`) and
    /// returns the answer; throws when the connection fails or closes before an answer.
    public static func send(
        _ method: String, _ path: String, port: Int, headers: [String: String] = [:], body: Data? = nil,
        timeout: Duration = .seconds(300)
    ) async throws -> Reply {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(10))
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                }
            }
        let head = requestHead(method, path, port: port, headers: headers, length: body?.count ?? 0)
        return try await withThrowingTaskGroup(of: Reply.self) { group in
            group.addTask {
                try await channel.executeThenClose { inbound, outbound in
                    try await outbound.write(.head(head))
                    if let body, !body.isEmpty { try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body)))) }
                    try await outbound.write(.end(nil))
                    var status = 0
                    var fields: [String: String] = [:]
                    var received = Data()
                    for try await part in inbound {
                        switch part {
                        case .head(let response):
                            status = Int(response.status.code)
                            for (name, value) in response.headers { fields[name.lowercased()] = value }
                        case .body(var buffer):
                            received.append(contentsOf: buffer.readBytes(length: buffer.readableBytes) ?? [])
                        case .end:
                            return Reply(status: status, headers: fields, body: received)
                        }
                    }
                    throw NIOHTTPTestClientError(description: "\(method) \(path): the connection closed before the answer ended")
                }
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw NIOHTTPTestClientError(description: "\(method) \(path): no answer within \(timeout)")
            }
            defer { group.cancelAll() }
            guard let reply = try await group.next() else { throw NIOHTTPTestClientError(description: "\(method) \(path): no answer") }
            return reply
        }
    }
}

extension NIOHTTPTestClient {
    static func requestHead(_ method: String, _ path: String, port: Int, headers: [String: String], length: Int) -> HTTPRequestHead {
        var head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method), uri: path)
        head.headers.add(name: "Host", value: "127.0.0.1:\(port)")
        head.headers.add(name: "Connection", value: "close")
        for (name, value) in headers { head.headers.add(name: name, value: value) }
        head.headers.add(name: "Content-Length", value: String(length))
        return head
    }
}

public struct NIOHTTPTestClientError: Error, CustomStringConvertible, Sendable {
    public let description: String
}

extension TestServer {
    /// ``request(_:_:apiKey:bearer:headers:body:)`` over ``NIOHTTPTestClient`` instead of
    /// URLSession, for load tests.
    public func requestOverNIO(
        _ method: String, _ path: String, apiKey: String?? = .none, bearer: String? = nil, headers: [String: String] = [:], body: Data? = nil
    ) async throws -> NIOHTTPTestClient.Reply {
        var fields = headers
        let key: String? =
            switch apiKey {
            case .none: anonKey
            case .some(let value): value
            }
        if let key { fields["apikey"] = key }
        if let bearer { fields["Authorization"] = "Bearer \(bearer)" }
        if body != nil, fields["Content-Type"] == nil { fields["Content-Type"] = "application/json" }
        return try await NIOHTTPTestClient.send(method, path, port: port, headers: fields, body: body)
    }
}
