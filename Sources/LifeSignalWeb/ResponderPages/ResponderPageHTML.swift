import Foundation
import LifeSignalBackend
import LifeSignalDomain

/// The pages behind a responder link, as HTML that needs no script: what happened, a way to
/// call, the shared location, and the two answers as plain forms posting back to the link.
enum ResponderPageHTML {
    static func active(_ page: ResponderPage, now: Date) -> String {
        let name = PageHTML.escape(page.personName)
        let headline =
            switch page.kind {
            case .sos: "\(page.personName) needs help"
            case .missedCheckIn: "\(page.personName) missed a check-in"
            }
        var body = "<h1>\(PageHTML.escape(headline))</h1>\n"
        switch page.kind {
        case .sos:
            body += "<p>SOS raised \(PageHTML.time(page.raisedAt, now: now)).</p>\n"
        case .missedCheckIn:
            let missed = page.missedDeadline ?? page.raisedAt
            body += "<p>Check-in missed: the deadline was \(PageHTML.time(missed, now: now)).</p>\n"
        }
        if let responded = page.respondedAt {
            body += "<p class=\"status\" role=\"status\">You said you're on it \(PageHTML.time(responded, now: now)).</p>\n"
        }
        if !page.otherResponders.isEmpty {
            body += "<p>Also on it: \(page.otherResponders.map(PageHTML.escape).joined(separator: ", ")).</p>\n"
        }
        if !page.personPhone.isEmpty {
            body += "<a class=\"button call\" href=\"tel:\(PageHTML.escape(page.personPhone))\">Call \(name)</a>\n"
        }
        body += "<h2>Details</h2>\n<dl>\n<dt>Last check-in</dt>\n<dd>"
        body += page.lastCheckInAt.map { PageHTML.time($0, now: now) } ?? "None yet"
        body += "</dd>\n"
        if let paused = page.pausedUntil {
            body += "<dt>Check-ins paused</dt>\n<dd>until <time datetime=\"\(PageHTML.escape(Timestamp.format(paused)))\">"
            body += "\(PageHTML.escape(PageHTML.readable(paused)))</time></dd>\n"
        }
        if !page.personPhone.isEmpty {
            body += "<dt>Phone</dt>\n<dd>\(PageHTML.escape(page.personPhone))</dd>\n"
        }
        if !page.emergencyNote.isEmpty {
            body += "<dt>Their note for emergencies</dt>\n<dd>\(PageHTML.escape(page.emergencyNote))</dd>\n"
        }
        body += "</dl>\n<h2>Location</h2>\n"
        if let location = page.location {
            body += "<p><a href=\"\(PageHTML.escape(mapLink(location)))\">Open the shared location on a map</a></p>\n"
            var about: [String] = []
            if let accuracy = location.accuracy { about.append("Within \(Int(accuracy.rounded())) m.") }
            if let at = location.recordedAt { about.append("Shared \(PageHTML.time(at, now: now)).") }
            if !about.isEmpty { body += "<p>\(about.joined(separator: " "))</p>\n" }
        } else {
            body += "<p>No location was shared.</p>\n"
        }
        body += "<h2>Respond</h2>\n"
        if page.respondedAt == nil {
            body += form(action: "on_it", label: "I'm on it", style: "onit")
            body += "<p class=\"small\">Tells \(name) and the other responders that you are on it.</p>\n"
        }
        body += form(action: "safe", label: "They're safe", style: "safe")
        body += "<p class=\"small\">Ends the alert and tells everyone who was told that \(name) is safe.</p>\n"
        return PageHTML.document(title: "\(headline) — LifeSignal", body: body)
    }

    /// OpenStreetMap with a marker: works in any browser, no key, no script on this page.
    static func mapLink(_ location: SharedLocation) -> String {
        let lat = String(format: "%.5f", location.latitude)
        let lon = String(format: "%.5f", location.longitude)
        return "https://www.openstreetmap.org/?mlat=\(lat)&mlon=\(lon)#map=16/\(lat)/\(lon)"
    }

    /// A form with no `action`: it posts to the page's own URL, whose token is the credential.
    private static func form(action: String, label: String, style: String) -> String {
        """
        <form method="post"><input type="hidden" name="action" value="\(action)">\
        <button type="submit" class="\(style)">\(PageHTML.escape(label))</button></form>

        """
    }

    static func markedSafe() -> String {
        PageHTML.document(
            title: "Marked safe — LifeSignal",
            body: """
                <h1>Marked safe</h1>
                <p class="status" role="status">Thank you. The alert is over, and everyone who was told about it is being told.</p>
                """)
    }

    /// The one page every link that shows nothing gets: forged, changed, expired, another
    /// responder's, a dropped responder's, an ended alert's. It names nobody and says nothing
    /// about which of these it was.
    static func unavailable() -> String {
        PageHTML.document(
            title: "Link not available — LifeSignal",
            body: """
                <h1>This link is not available</h1>
                <p>It may have expired, or what it was about is over.</p>
                <p>If you are worried about someone, call them, or call the emergency services.</p>
                """)
    }

    /// The server could not answer now (the database is unreachable, or a failure).
    static func unavailableNow() -> String {
        PageHTML.document(
            title: "Try again — LifeSignal",
            body: """
                <h1>LifeSignal cannot answer right now</h1>
                <p>Open the link again in a minute.</p>
                <p>If you are worried about someone, call them, or call the emergency services.</p>
                """)
    }

    static func refused() -> String {
        PageHTML.document(
            title: "Not done — LifeSignal",
            body: """
                <h1>That did not go through</h1>
                <p>Open the link again and use the buttons on its page.</p>
                """)
    }
}
