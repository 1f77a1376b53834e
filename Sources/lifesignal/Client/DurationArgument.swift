import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions

/// Durations and times as a person types them: `15m`, `2h`, `90s`, `1d` (a bare number is
/// seconds), and a time as ISO 8601 or as a duration from now (`--until 8h`).
enum DurationArgument {
    /// Seconds in `text`; the message names the option.
    static func seconds(_ text: String, option: String) throws(DomainError) -> Int {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        var digits = Substring(trimmed)
        var unit = 1
        if let last = trimmed.last, let scale = units[last] {
            digits = trimmed.dropLast()
            unit = scale
        }
        // At most 7 digits: anything longer is past every range these options take.
        guard !digits.isEmpty, digits.count <= 7, digits.allSatisfy(\.isASCII), let value = Int(digits), value >= 0 else {
            throw .invalidArgument("\(option) takes a duration such as 15m, 2h or 1d, not \"\(text.prefix(40))\"")
        }
        return value * unit
    }

    /// A time: ISO 8601 (`2026-12-01T09:00:00Z`), or a duration from `now` (`8h`).
    static func time(_ text: String, option: String, now: Date) throws(DomainError) -> Date {
        if text.count <= 40, let date = Timestamp.parse(text) { return date }
        do {
            return now.addingTimeInterval(TimeInterval(try seconds(text, option: option)))
        } catch {
            throw .invalidArgument("\(option) takes a time (ISO 8601, e.g. 2026-12-01T09:00:00Z) or a duration from now (e.g. 8h), not \"\(text.prefix(40))\"")
        }
    }

    /// `2h`, `15m`, `45s`, `1d` for display: the largest unit that divides it.
    static func text(_ seconds: Int) -> String {
        for (unit, size) in [("d", 86_400), ("h", 3600), ("m", 60)] where seconds > 0 && seconds % size == 0 {
            return "\(seconds / size)\(unit)"
        }
        return "\(seconds)s"
    }
}
