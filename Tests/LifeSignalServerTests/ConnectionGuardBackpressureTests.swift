import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

@testable import LifeSignalServer

/// The body deadline counts the client's delay, not the server's: while the server withholds
/// reads (its request reader is full, as under heavy load), nothing the client sends can
/// arrive, so that time does not count against the body. A unit test of the guard alone, on
/// an embedded channel with virtual time.
@Suite("Connection guard: server backpressure")
struct ConnectionGuardBackpressureTests {
    /// Stands in for a full request reader: while `holding`, it keeps `read()` from the socket.
    final class ReadGate: ChannelOutboundHandler {
        typealias OutboundIn = Any
        var holding = false
        private var held = false
        private var context: ChannelHandlerContext?

        func handlerAdded(context: ChannelHandlerContext) { self.context = context }

        func read(context: ChannelHandlerContext) {
            if holding { held = true } else { context.read() }
        }

        func open() {
            holding = false
            if held {
                held = false
                context?.read()
            }
        }
    }

    struct Connection {
        let channel: EmbeddedChannel
        let gate: ReadGate

        var loop: EmbeddedEventLoop { channel.embeddedEventLoop }

        /// Bytes from the client, then the read the channel's auto-read asks for after them.
        func receive(_ text: String) throws {
            try channel.writeInbound(channel.allocator.buffer(string: text))
            channel.pipeline.read()
        }

        /// What the guard wrote itself (its refusals), as text.
        func written() throws -> String {
            var text = ""
            while let buffer = try channel.readOutbound(as: ByteBuffer.self) { text += String(buffer: buffer) }
            return text
        }
    }

    static func connect(bodyTimeout: Duration = .seconds(2)) throws -> Connection {
        let channel = EmbeddedChannel()
        var limits = ConnectionLimits()
        limits.bodyTimeout = bodyTimeout
        let state = ConnectionGuard(limits: limits, logger: Logger(label: "test"))
        let gate = ReadGate()
        let sync = channel.pipeline.syncOperations
        try sync.addHandler(ConnectionSocketHandler(state: state))
        try sync.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .forwardBytes)))
        try sync.addHandler(ConnectionRequestHandler(state: state))
        try sync.addHandler(gate)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
        return Connection(channel: channel, gate: gate)
    }

    static let head = "POST /functions/v1/check-in HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n"

    @Test("a body that stops arriving while the server reads gets 408 at the body timeout")
    func clientDelay() throws {
        let connection = try Self.connect()
        try connection.receive(Self.head)
        connection.loop.advanceTime(by: .milliseconds(1900))
        #expect(try connection.written().isEmpty)
        connection.loop.advanceTime(by: .milliseconds(200))
        #expect(try connection.written().hasPrefix("HTTP/1.1 408 "))
    }

    @Test("time the server withholds reads does not count against the body")
    func serverDelay() throws {
        let connection = try Self.connect()
        connection.gate.holding = true
        try connection.receive(Self.head)
        // Five seconds of a full reader: the 2 s body deadline passes without an answer.
        connection.loop.advanceTime(by: .seconds(5))
        #expect(try connection.written().isEmpty, "the server's own delay must not be answered 408")
        #expect(connection.channel.isActive)
        // Reading again, the client has what was left of its 2 s, and no more.
        connection.gate.open()
        connection.loop.advanceTime(by: .milliseconds(1900))
        #expect(try connection.written().isEmpty)
        connection.loop.advanceTime(by: .milliseconds(200))
        #expect(try connection.written().hasPrefix("HTTP/1.1 408 "))
    }

    @Test("a body that arrives once the server reads again is passed on whole")
    func bodyAfterServerDelay() throws {
        let connection = try Self.connect()
        connection.gate.holding = true
        try connection.receive(Self.head)
        connection.loop.advanceTime(by: .seconds(5))
        connection.gate.open()
        try connection.receive("0123456789")
        connection.loop.advanceTime(by: .seconds(3))
        #expect(try connection.written().isEmpty)
        var parts: [HTTPServerRequestPart] = []
        while let part = try connection.channel.readInbound(as: HTTPServerRequestPart.self) { parts.append(part) }
        #expect(parts.count == 3)
        if case .end = parts.last {} else { Issue.record("the request's end must reach the reader, got \(parts)") }
    }
}
