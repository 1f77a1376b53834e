/// One socket's inbound message budget: a token bucket of ``RealtimeLimits/messagesPerSecond``
/// tokens, refilled at that rate, so a client may burst (re-joining its channels after a
/// reconnect) but not keep the server decoding and answering its frames.
struct RealtimeMessageRate {
    enum Verdict: Equatable {
        /// Within the budget: handle the message.
        case admit
        /// Over it: answer with an error, do nothing else.
        case refuse
        /// Over it again after as many refusals as the budget holds: close the socket.
        case close
    }

    private let perSecond: Double
    private var tokens: Double
    private var refusedInARow = 0
    private var last: ContinuousClock.Instant

    init(perSecond: Int, now: ContinuousClock.Instant = .now) {
        self.perSecond = Double(max(perSecond, 1))
        tokens = self.perSecond
        last = now
    }

    mutating func take(now: ContinuousClock.Instant = .now) -> Verdict {
        let elapsed = last.duration(to: now)
        last = now
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        tokens = min(perSecond, tokens + max(seconds, 0) * perSecond)
        if tokens >= 1 {
            tokens -= 1
            refusedInARow = 0
            return .admit
        }
        refusedInARow += 1
        return Double(refusedInARow) > perSecond ? .close : .refuse
    }
}
