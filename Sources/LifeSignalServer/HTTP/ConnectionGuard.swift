import Logging
import NIOCore
import NIOHTTP1

/// One connection's place in the request cycle, shared by its two guard handlers: the one
/// nearest the socket (which sees bytes) and the one after the HTTP decoder (which sees request
/// heads and ends and the answers going out). From these it keeps the one deadline that
/// applies now (head, body or idle), and it answers and closes when a client breaks a limit.
///
/// Both handlers run on the connection's event loop, so the state needs no lock; it is never
/// handed to another thread.
final class ConnectionGuard {
    enum Phase: Equatable {
        /// Waiting for a request head; `started` once a byte of it arrived.
        case awaitingHead(started: Bool)
        case readingBody
        /// The request was read; the server's turn, so no deadline runs.
        case answering
        case idle
        /// A WebSocket now: Realtime's own limits apply.
        case upgraded
        /// Answered and closing: input is discarded until the client closes or the linger ends.
        case closing
    }

    /// How long a closing connection keeps reading (and dropping) what the client still sends,
    /// so that closing with unread input (which makes the kernel send a reset) does not destroy
    /// the answer before the client reads it.
    static let lingerTime: TimeAmount = .seconds(2)

    let limits: ConnectionLimits
    let logger: Logger
    private(set) var phase: Phase = .awaitingHead(started: false)
    private var headBytes = 0
    private var requestsRead = 0
    private var answersStarted = 0
    private var answersFinished = 0
    /// The one timer, scheduled for `timerAt`; it may run ahead of `deadline` (see ``arm(until:)``).
    private var timer: Scheduled<Void>?
    private var timerAt: NIODeadline?
    /// The deadline that applies now; `nil` while none runs.
    private var deadline: NIODeadline?
    /// When the server last took what arrived and has not asked for more since: its reader is
    /// full (a handler has not got to the request yet), so nothing can arrive meanwhile.
    private var readsWithheldSince: NIODeadline?
    /// When the current request's body is due: the body timeout after its head, moved on by
    /// every stretch the server withheld reads, which is the server's delay, not the client's.
    private var bodyDue: NIODeadline?
    /// The handler nearest the socket: raw answers are written from here, past the HTTP encoder.
    var socketContext: ChannelHandlerContext?
    /// The handler after the HTTP decoder: a failure fired from here reaches the request's reader.
    var requestContext: ChannelHandlerContext?
    /// A full close asked for while lingering, completed when the linger ends.
    var deferredClose: EventLoopPromise<Void>?

    init(limits: ConnectionLimits, logger: Logger) {
        self.limits = limits
        self.logger = logger
    }

    // MARK: What the socket handler reports

    /// The connection was accepted: its first head is due within the head timeout.
    func opened() {
        arm(limits.headTimeout)
    }

    /// Bytes arrived, before the decoder sees them: the next request's head starts (and its
    /// deadline with it) at its first byte, and its size is counted until it is decoded.
    func bytesArriving(_ count: Int) {
        switch phase {
        case .idle:
            phase = .awaitingHead(started: true)
            headBytes = count
            arm(limits.headTimeout)
        case .awaitingHead:
            phase = .awaitingHead(started: true)
            headBytes += count
        default:
            break
        }
    }

    /// The decoder has seen the bytes: a head still incomplete past the limit is refused. The
    /// count includes the request line, which the decoder's own header limit does not bound.
    func bytesDecoded() {
        if case .awaitingHead = phase, headBytes > limits.maxHeadBytes {
            refuse(.requestHeaderFieldsTooLarge, "The request head is larger than \(limits.maxHeadBytes) bytes")
        }
    }

    // MARK: What the request handler reports

    func headRead() {
        requestsRead += 1
        headBytes = 0
        guard phase != .closing, phase != .upgraded else { return }
        phase = .readingBody
        bodyDue = socketContext.map { $0.eventLoop.now + TimeAmount(limits.bodyTimeout) }
        arm(limits.bodyTimeout)
    }

    // MARK: What the socket handler reports about reading

    /// The server took what the socket delivered; until it asks for more, the client cannot
    /// send anything.
    func readDelivered() {
        readsWithheldSince = socketContext?.eventLoop.now
    }

    /// The server asks for input again: the time it withheld reads is added to the body's
    /// time, and a body deadline that passed meanwhile starts counting again.
    func readRequested() {
        guard let since = readsWithheldSince, let context = socketContext else { return }
        readsWithheldSince = nil
        guard phase == .readingBody, let due = bodyDue else { return }
        let moved = due + (context.eventLoop.now - since)
        bodyDue = moved
        if timer == nil { arm(until: moved) }
    }

    func endRead() {
        guard phase == .readingBody else { return }
        if answersFinished == requestsRead {
            becomeIdle()  // answered before the body was read (a refusal): the body was drained
        } else {
            phase = .answering
            arm(limits.answerTimeout)
        }
    }

    func answerStarted() {
        answersStarted += 1
    }

    func answerFinished() {
        answersFinished += 1
        if phase == .answering, answersFinished == requestsRead { becomeIdle() }
    }

    func upgraded() {
        guard phase != .closing else { return }
        phase = .upgraded
        cancelTimer()
    }

    /// The decoder refused what it read: an oversized head is 431, anything else (a malformed
    /// request line, header or chunk) is 400.
    func parserFailed(_ error: HTTPParserError) {
        guard phase != .closing else { return }
        if error == .headerOverflow {
            refuse(.requestHeaderFieldsTooLarge, "The request head is larger than \(limits.maxHeadBytes) bytes or has too many fields")
        } else {
            refuse(.badRequest, "Malformed HTTP request: \(error)")
        }
    }

    func closed() {
        cancelTimer()
        socketContext = nil
        requestContext = nil
    }

    // MARK: Deadlines and answers

    private func becomeIdle() {
        phase = .idle
        arm(limits.idleTimeout)
    }

    private func arm(_ duration: Duration) {
        guard let context = socketContext else { return }
        arm(until: context.eventLoop.now + TimeAmount(duration))
    }

    /// Moves the deadline. A request moves it four times (head, body, answer, idle) and the
    /// next request's head moves it again, nearly always later; rescheduling a timer each time
    /// cost about 4 % of the server's CPU on a `/rest/v1` read. So a timer already due no later
    /// than the new deadline stays: when it fires early it is set again for the deadline then.
    /// Only a deadline earlier than the timer reschedules it.
    private func arm(until deadline: NIODeadline) {
        guard let context = socketContext else {
            cancelTimer()
            return
        }
        self.deadline = deadline
        if timer != nil, let timerAt, timerAt <= deadline { return }
        schedule(at: deadline, on: context)
    }

    private func schedule(at when: NIODeadline, on context: ChannelHandlerContext) {
        timer?.cancel()
        timerAt = when
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: when) { [weak self] in
            self?.timerFired()
        }
    }

    private func cancelTimer() {
        timer?.cancel()
        timer = nil
        timerAt = nil
        deadline = nil
    }

    private func timerFired() {
        timer = nil
        timerAt = nil
        guard let deadline else { return }
        if let context = socketContext, context.eventLoop.now < deadline {
            schedule(at: deadline, on: context)
            return
        }
        self.deadline = nil
        timedOut()
    }

    private func timedOut() {
        switch phase {
        case .awaitingHead(started: true):
            logger.debug("Request head not received in time, closing")
            refuse(.requestTimeout, "The request head was not received within \(limits.headTimeout)")
        case .readingBody:
            // The server is not reading: the deadline waits until it asks again.
            guard readsWithheldSince == nil else { return }
            if let due = bodyDue, let now = socketContext?.eventLoop.now, due > now {
                arm(until: due)
                return
            }
            logger.debug("Request body not received in time, closing")
            refuse(.requestTimeout, "The request body was not received within \(limits.bodyTimeout)")
        case .awaitingHead(started: false), .idle:
            phase = .closing
            socketContext?.close(promise: nil)
        case .answering:
            logger.warning("No answer within \(limits.answerTimeout); answering 503 and closing")
            answerLate()
        case .upgraded, .closing:
            break
        }
    }

    /// The handler did not answer in time: the connection answers 503 for it when nothing of
    /// an answer is on the wire yet and this is the only request waiting, then closes. The
    /// handler's own answer, if it ever comes, goes nowhere.
    private func answerLate() {
        let canAnswer = answersStarted == answersFinished && answersFinished == requestsRead - 1
        phase = .closing
        cancelTimer()
        guard let context = socketContext else { return }
        let bytes =
            canAnswer
            ? ConnectionAnswer.bytes(
                .serviceUnavailable, "The server did not answer within \(limits.answerTimeout); the request may still complete",
                retryAfter: 1, allocator: context.channel.allocator)
            : nil
        Self.finish(context: context, answer: bytes, owner: self)
    }

    /// Whether a raw answer fits in the exchange now: no answer is half written, and every
    /// request before the current one has its answer.
    private var mayAnswer: Bool {
        answersStarted == answersFinished && answersFinished == requestsRead - (phase == .readingBody ? 1 : 0)
    }

    /// Answers (when the exchange allows it) and closes: the reader of an unfinished request is
    /// told it failed, so no route acts on a body cut short; its own answer is then dropped.
    private func refuse(_ status: HTTPResponseStatus, _ message: String) {
        let answer = mayAnswer
        phase = .closing
        cancelTimer()
        requestContext?.fireErrorCaught(ConnectionLimitError(status: status, message: message))
        guard let context = socketContext else { return }
        let bytes = answer ? ConnectionAnswer.bytes(status, message, allocator: context.channel.allocator) : nil
        Self.finish(context: context, answer: bytes, owner: self)
    }

    /// An answer went out before its request's body was read (a refusal): rather than read the
    /// rest of a body nobody wants (up to the body timeout), the connection ends once the
    /// answer has been written.
    func earlyAnswerWritten() {
        guard phase == .readingBody, answersFinished == requestsRead, let context = socketContext else { return }
        phase = .closing
        cancelTimer()
        Self.finish(context: context, answer: nil, owner: self)
    }

    /// Writes `answer` (raw bytes, from the handler nearest the socket), then half-closes, so
    /// the answer goes out with a FIN, and keeps reading (and dropping) what the client still
    /// sends until it closes or the linger ends; then closes.
    static func finish(context: ChannelHandlerContext, answer: ByteBuffer?, owner: ConnectionGuard?) {
        let written = answer.map { context.writeAndFlush(NIOAny($0)) } ?? context.eventLoop.makeSucceededVoidFuture()
        written.assumeIsolated().whenComplete { _ in
            context.close(mode: .output, promise: nil)
            context.eventLoop.assumeIsolated().scheduleTask(in: lingerTime) {
                let promise = owner?.deferredClose
                owner?.deferredClose = nil
                context.close(mode: .all, promise: promise)
            }
        }
    }
}

/// Why a guard ended a request: fired to the request's reader so it stops instead of acting
/// on what it has.
struct ConnectionLimitError: Error, CustomStringConvertible {
    let status: HTTPResponseStatus
    let message: String
    var description: String { "\(status.code): \(message)" }
}

/// The raw answers the guards write themselves, past the HTTP encoder: no route sees these
/// requests, and the connection closes after them.
enum ConnectionAnswer {
    static func bytes(_ status: HTTPResponseStatus, _ message: String, retryAfter: Int? = nil, allocator: ByteBufferAllocator) -> ByteBuffer {
        let body = "{\"message\":\"\(escaped(message))\"}"
        var head = "HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\n"
        head += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n"
        if let retryAfter { head += "Retry-After: \(retryAfter)\r\n" }
        return allocator.buffer(string: head + "\r\n" + body)
    }

    /// Messages are the server's own, but a parser error's description may carry anything.
    private static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += " "
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
