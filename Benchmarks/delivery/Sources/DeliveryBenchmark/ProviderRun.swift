import Foundation
import LifeSignalBackend
import LifeSignalDomain

/// The senders alone against the stand-ins, no database: `count` messages on one channel at a
/// time, `concurrency` in flight as the ledger sends them. What this reaches bounds what the
/// sweep can reach through the same stand-ins.
enum ProviderRun {
    static func run(count: Int, concurrency: Int) async throws {
        let providers = try Providers.fromEnvironment()
        let (channels, apns) = try providers.channels()
        print("senders alone → stand-ins: \(count) messages a channel, \(concurrency) in flight")
        let senders: [(DeliveryChannel, (any ChannelSender)?, @Sendable (Int) -> String)] = [
            (.sms, channels.sms, { "+1555100\(String(format: "%04d", $0 % 10_000))" }),
            (.email, channels.email, { "alone\($0)@example.com" }),
            (.push, channels.apns, { "abce" + String(format: "%060x", $0) }),
        ]
        for (channel, configured, address) in senders {
            guard let sender = configured else { continue }
            let before = try providers.received()[channel]?.accepted ?? 0
            let start = ContinuousClock.now
            let cpu = CPUSample.now()
            let failures = await send(count: count, concurrency: concurrency, sender: sender) { index in
                OutboundMessage(
                    id: UUID(), channel: channel, address: address(index), recipient: UserID(UUID()), kind: .nonResponsiveDependent,
                    title: "Emergency Alert — User Number\(index)", body: "User Number\(index)'s check-in has expired.",
                    data: ["type": "non_responsive_dependent", "contactId": UUID().uuidString.lowercased()],
                    link: URL(string: "https://lifesignal.example/r/\(UUID().uuidString.lowercased())"), platform: "apns")
            }
            let elapsed = Format.seconds(ContinuousClock.now - start)
            let after = try providers.received()[channel]?.accepted ?? 0
            print("  " + channel.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0)
                  + String(format: "%7d sent in %7.3f s: %7.0f messages/s; %d failed; the stand-in logged %d",
                           count, elapsed, Double(count) / elapsed, failures, after - before))
            print("    " + cpu.report(until: CPUSample.now(), seconds: elapsed))
        }
        try await apns.shutdown()
    }

    /// Sends `count` messages with at most `concurrency` in flight; returns how many failed.
    private static func send(count: Int, concurrency: Int, sender: any ChannelSender,
                             message: @escaping @Sendable (Int) -> OutboundMessage) async -> Int {
        await withTaskGroup(of: Bool.self) { group in
            var next = 0, failed = 0
            for _ in 0..<min(concurrency, count) {
                let index = next
                next += 1
                group.addTask { if case .sent = await sender.send(message(index)) { true } else { false } }
            }
            while let ok = await group.next() {
                if !ok { failed += 1 }
                if next < count {
                    let index = next
                    next += 1
                    group.addTask { if case .sent = await sender.send(message(index)) { true } else { false } }
                }
            }
            return failed
        }
    }
}
