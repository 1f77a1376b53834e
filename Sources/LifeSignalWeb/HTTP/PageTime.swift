import Foundation
import RFC3339

/// Times as pages show them. The server writes UTC and how long ago or ahead; `app.js` turns
/// each `<time data-local>` into the reader's own time zone when script runs.
enum PageTime {
    static func iso(_ date: Date) -> String { RFC3339.format(date, fractionDigits: 0, zone: .z) }

    /// "Sun 29 Nov, 14:05 UTC".
    static func readable(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.weekday, .day, .month, .hour, .minute], from: date)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let day = days[max(0, min(6, (parts.weekday ?? 1) - 1))]
        let month = months[max(0, min(11, (parts.month ?? 1) - 1))]
        return "\(day) \(parts.day ?? 1) \(month), \(two(parts.hour)):\(two(parts.minute)) UTC"
    }

    /// "3 h 20 min left", or "Overdue by 12 min": the countdown's text without script.
    static func remaining(until deadline: Date, now: Date) -> String {
        let seconds = Int(deadline.timeIntervalSince(now))
        return seconds >= 0 ? "\(span(seconds)) left" : "Overdue by \(span(-seconds))"
    }

    /// "just now", "5 minutes ago", "3 hours ago", "2 days ago" ("in the future" for a clock
    /// that disagrees).
    static func ago(_ date: Date, now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        if seconds < 0 { return "in the future" }
        if seconds < 60 { return "just now" }
        let minutes = seconds / 60
        if minutes < 60 { return minutes == 1 ? "1 minute ago" : "\(minutes) minutes ago" }
        let hours = minutes / 60
        if hours < 48 { return hours == 1 ? "1 hour ago" : "\(hours) hours ago" }
        return "\(hours / 24) days ago"
    }

    /// "45 min", "3 h 20 min", "2 days 4 h".
    static func span(_ seconds: Int) -> String {
        let minutes = (seconds + 59) / 60
        if minutes < 60 { return "\(minutes) min" }
        let hours = minutes / 60
        if hours < 48 { return minutes % 60 == 0 ? "\(hours) h" : "\(hours) h \(minutes % 60) min" }
        let days = hours / 24
        return hours % 24 == 0 ? "\(days) days" : "\(days) days \(hours % 24) h"
    }

    /// "24 hours", "2 days", "1 hour", "90 minutes".
    static func duration(_ seconds: Int) -> String {
        if seconds % 86_400 == 0, seconds >= 2 * 86_400 { return "\(seconds / 86_400) days" }
        if seconds % 3600 == 0 { return seconds == 3600 ? "1 hour" : "\(seconds / 3600) hours" }
        return "\(seconds / 60) minutes"
    }

    private static func two(_ value: Int?) -> String {
        let v = value ?? 0
        return v < 10 ? "0\(v)" : "\(v)"
    }
}

extension String {
    /// "Second, if nobody answers" from "second, if nobody answers".
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
