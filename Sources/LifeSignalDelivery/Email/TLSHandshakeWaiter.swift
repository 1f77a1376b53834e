import NIOCore
import NIOTLS

/// Completes its promise when the TLS handshake in front of it ends: with success, or with the
/// error that ended it (an untrusted certificate, a closed connection). After `STARTTLS` the
/// client waits for this before its next command, so a refused handshake is reported as what
/// it is rather than as a write to a connection that has just closed.
final class TLSHandshakeWaiter: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let promise: EventLoopPromise<Void>

    init(promise: EventLoopPromise<Void>) {
        self.promise = promise
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshakeCompleted = event as? TLSUserEvent { promise.succeed(()) }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        promise.fail(error)
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        promise.fail(EmailError.tls("the server closed the connection during the TLS handshake"))
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        promise.fail(EmailError.tls("the TLS handshake did not finish"))
    }
}
