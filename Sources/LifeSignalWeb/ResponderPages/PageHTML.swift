import Foundation
import LifeSignalBackend
import LifeSignalDomain

/// Small builders for the server's few HTML pages: every piece of text that comes from data
/// goes through ``escape(_:)``, and the page shell carries one fixed inline style whose hash
/// the `Content-Security-Policy` names (no script anywhere).
public enum PageHTML {
    /// Escapes text for element content and double-quoted attribute values.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            // Controls other than tab and newline have no business on a page.
            case "\u{00}"..."\u{08}", "\u{0B}", "\u{0C}", "\u{0E}"..."\u{1F}", "\u{7F}": continue
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// Large type, large targets (at least 48 px tall), dark text on white and buttons whose
    /// colours pass WCAG AA; one column that fits a phone.
    static let style = """
        body{margin:0;font:18px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#111;background:#fff}\
        main{max-width:36rem;margin:0 auto;padding:1rem}\
        h1{font-size:1.6rem;line-height:1.25;margin:.5rem 0 .75rem}\
        h2{font-size:1.2rem;margin:1.5rem 0 .5rem}\
        p,dd{margin:.25rem 0 .75rem}dt{font-weight:600}dd{margin-left:0}\
        .status{padding:.75rem 1rem;border-left:.4rem solid #0a5c2b;background:#e8f5ec}\
        .button,button{display:block;box-sizing:border-box;width:100%;min-height:3rem;margin:.5rem 0;padding:.75rem 1rem;\
        border:0;border-radius:.5rem;font:inherit;font-weight:700;text-align:center;text-decoration:none;cursor:pointer}\
        .call{background:#0b4f9c;color:#fff}.onit{background:#8a1c00;color:#fff}.safe{background:#0a5c2b;color:#fff}\
        .button:focus,button:focus{outline:.2rem solid #111;outline-offset:.2rem}\
        a{color:#0b4f9c}.small{font-size:.9rem;color:#333}
        """

    static let styleSource = PageDigest.cspSource(style)

    /// The strict policy every page carries: nothing loads, nothing runs, forms go only to this
    /// server, no framing.
    static let contentSecurityPolicy =
        "default-src 'none'; style-src \(styleSource); form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    static func document(title: String, body: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer">
        <meta name="robots" content="noindex, nofollow">
        <title>\(escape(title))</title>
        <style>\(style)</style>
        </head>
        <body>
        <main>
        \(body)
        </main>
        </body>
        </html>
        """
    }

    /// A `<time>` with a readable UTC date and how long ago it was.
    static func time(_ date: Date, now: Date) -> String {
        "<time datetime=\"\(escape(Timestamp.format(date)))\">\(escape(readable(date)))</time> (\(escape(ago(date, now: now))))"
    }

    /// "26 Nov 2026, 00:39 UTC": the page has no script to learn the reader's time zone.
    static func readable(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let month = months[max(0, min(11, (parts.month ?? 1) - 1))]
        func two(_ value: Int?) -> String {
            let v = value ?? 0
            return v < 10 ? "0\(v)" : "\(v)"
        }
        return "\(parts.day ?? 1) \(month) \(parts.year ?? 1970), \(two(parts.hour)):\(two(parts.minute)) UTC"
    }

    static func ago(_ date: Date, now: Date) -> String { PageTime.ago(date, now: now) }
}
