import Foundation

/// How the benchmark prints times and rates.
enum Format {
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// One channel's messages, with times in seconds after the sweep began; the rate is over
    /// the whole span from the sweep's start to the last message.
    static func line(_ channel: String, _ count: Int, distinct: Int, first: Double, last: Double) -> String {
        "  " + channel.padding(toLength: 6, withPad: " ", startingAt: 0)
            + String(format: "%7d messages, %7d distinct addresses, first %7.3f s, last %7.3f s after the sweep began: %7.0f messages/s",
                     count, distinct, first, last, last > 0 ? Double(count) / last : 0)
    }
}
