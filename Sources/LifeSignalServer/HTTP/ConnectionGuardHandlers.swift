import NIOCore
import NIOHTTP1

/// First in the pipeline, nearest the socket: it sees bytes before the HTTP decoder does, so it
/// knows when a head starts and how large it has grown, and it starts the first deadline when
/// the connection opens. Once its ``ConnectionGuard`` is closing, it drops what the client
/// still sends and holds the final close until the linger ends.
final class ConnectionSocketHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = Any
    typealias OutboundOut = Any

    private let state: ConnectionGuard

    init(state: ConnectionGuard) {
        self.state = state
    }

    func handlerAdded(context: ChannelHandlerContext) {
        state.socketContext = context
        if context.channel.isActive { state.opened() }
    }

    func channelActive(context: ChannelHandlerContext) {
        state.opened()
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        state.deferredClose?.succeed(())
        state.deferredClose = nil
        state.closed()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard state.phase != .closing else { return }
        state.bytesArriving(unwrapInboundIn(data).readableBytes)
        context.fireChannelRead(data)
        state.bytesDecoded()
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        state.readDelivered()
        context.fireChannelReadComplete()
    }

    func read(context: ChannelHandlerContext) {
        state.readRequested()
        context.read()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The client finished sending while we linger: nothing more can arrive, so close now.
        if state.phase == .closing, let event = event as? ChannelEvent, event == .inputClosed {
            let promise = state.deferredClose
            state.deferredClose = nil
            context.close(mode: .all, promise: promise)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        // A handler further in (Hummingbird, once its request failed) closes at once; while the
        // answer may still be on its way, that close waits for the linger.
        guard state.phase == .closing, mode == .all, context.channel.isActive else {
            context.close(mode: mode, promise: promise)
            return
        }
        if let held = state.deferredClose {
            if let promise { held.futureResult.cascade(to: promise) }
        } else {
            state.deferredClose = promise ?? context.eventLoop.makePromise()
        }
    }
}

/// After the HTTP decoder (and the upgrade handler, while there is one), before Hummingbird's
/// codec: it sees request heads and ends coming in and answers going out, and the decoder's
/// errors. Its types are `Any` because after a WebSocket upgrade Realtime's frames pass through
/// it untouched.
final class ConnectionRequestHandler: ChannelDuplexHandler {
    typealias InboundIn = Any
    typealias InboundOut = Any
    typealias OutboundIn = Any
    typealias OutboundOut = Any

    private let state: ConnectionGuard

    init(state: ConnectionGuard) {
        self.state = state
    }

    func handlerAdded(context: ChannelHandlerContext) {
        state.requestContext = context
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) as? HTTPServerRequestPart {
        case .head: state.headRead()
        case .end: state.endRead()
        case .body, nil: break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // Once the guard answered, the route's own answer to the failed request goes nowhere.
        guard state.phase != .closing else {
            promise?.succeed(())
            return
        }
        switch unwrapOutboundIn(data) as? HTTPServerResponsePart {
        case .head(let head) where head.status.code >= 200:
            state.answerStarted()
        case .end:
            state.answerFinished()
            guard state.phase == .readingBody else { break }
            let written = promise ?? context.eventLoop.makePromise()
            context.write(data, promise: written)
            written.futureResult.assumeIsolated().whenComplete { [state] _ in state.earlyAnswerWritten() }
            return
        case .head, .body, nil:
            break
        }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let parserError = error as? HTTPParserError {
            state.parserFailed(parserError)
        }
        context.fireErrorCaught(error)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .upgradeComplete = event as? HTTPServerUpgradeEvents { state.upgraded() }
        context.fireUserInboundEventTriggered(event)
    }
}

/// The whole pipeline of a connection refused at accept time (its address holds too many): it
/// answers 429 at once, before any request, and closes after the linger.
final class ConnectionRefusalHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let maximum: Int
    private var answered = false

    init(maximum: Int) {
        self.maximum = maximum
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { answer(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        answer(context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed { context.close(promise: nil) }
    }

    private func answer(_ context: ChannelHandlerContext) {
        guard !answered else { return }
        answered = true
        let message = "Too many connections from this address (at most \(maximum))"
        let answer = ConnectionAnswer.bytes(.tooManyRequests, message, retryAfter: 1, allocator: context.channel.allocator)
        ConnectionGuard.finish(context: context, answer: answer, owner: nil)
    }
}
