import Foundation

/// The countries a server sends SMS to: the operator's allow-list (`LIFESIGNAL_SMS_COUNTRIES`,
/// e.g. `US,CA,GB`), as ISO 3166-1 alpha-2 codes.
///
/// SMS costs money per message, and far more to some destinations than others. "SMS pumping"
/// (toll fraud) abuses any form that sends a code to a number it is given: bots type premium-rate
/// or foreign numbers whose carriers share the fee with the fraudster, and the operator pays.
/// Sending only to the countries the operator's people actually live in shuts that out.
///
/// A number's country comes from its calling code, the longest that matches. The North American
/// Numbering Plan is the trap: `+1` is shared by the US, Canada and twenty-odd Caribbean and
/// Atlantic countries and territories, several of them favourite pumping destinations with
/// international rates, so `+1` is read by its area code (the three digits after the `1`) and
/// only area codes that belong to no one else count as `US`.
///
/// `+7` is split the way the plan splits it: `+7 6…` and `+7 7…` are Kazakhstan (`KZ`), the
/// rest Russia (`RU`). Calling codes outside the table have no country, and are never allowed.
/// Territories that share a country's calling code without an area code of their own (Jersey
/// under `+44`, Åland under `+358`) count as that country.
public struct SMSCountries: Sendable, Hashable, CustomStringConvertible {
    private let allowed: Set<String>

    /// The allow-list of `codes` (ISO 3166-1 alpha-2, any case); entries are trimmed, and empty
    /// ones ignored so a trailing comma is harmless.
    ///
    /// - Throws: ``DomainError/invalidArgument(_:)`` naming a code ``country(of:)`` never
    ///   answers (a typo such as `UK` would otherwise silently allow nothing), or when no code
    ///   is left (an empty list would stop all SMS, sign-in codes included).
    public init(_ codes: some Sequence<String>) throws(DomainError) {
        var allowed: Set<String> = []
        for entry in codes {
            let written = entry.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !written.isEmpty else { continue }
            let code = written.uppercased()
            guard Self.known.contains(code) else {
                throw .invalidArgument(
                    "\"\(written)\" is not a country LifeSignal can send SMS to; known codes: \(Self.knownCodes.joined(separator: ", "))")
            }
            allowed.insert(code)
        }
        guard !allowed.isEmpty else {
            throw .invalidArgument("Name at least one country to send SMS to, as ISO codes such as US,CA,GB")
        }
        self.allowed = allowed
    }

    private init(known codes: Set<String>) { allowed = codes }

    /// The comma-separated setting (`"US, ca,GB"`), read as ``init(_:)`` reads a list.
    public static func parse(_ text: String) throws(DomainError) -> SMSCountries {
        try SMSCountries(text.split(separator: ",", omittingEmptySubsequences: false).map(String.init))
    }

    /// The allowed codes, sorted.
    public var codes: [String] { allowed.sorted() }

    /// `"CA, US"`: the codes for a startup banner or a log line.
    public var description: String { codes.joined(separator: ", ") }

    /// Whether SMS may go to `number`: only if its country is known and on the list.
    public func allows(_ number: PhoneNumber) -> Bool {
        guard let country = Self.country(of: number) else { return false }
        return allowed.contains(country)
    }

    /// The allow-list a server gets when the operator sets none: the country of its own sending
    /// number (`+1415…` → `US`), since that is where its SMS are cheapest and surely wanted.
    ///
    /// `nil` when `sender` is not a phone number (a Twilio Messaging Service id `MG…`, an
    /// alphanumeric sender) or its country is unknown; the operator must then name countries.
    public static func defaultFor(sender: String) -> SMSCountries? {
        guard let number = try? PhoneNumber(sender), let country = country(of: number) else { return nil }
        return SMSCountries(known: [country])
    }

    /// The ISO code of `number`'s country by the longest calling-code prefix in the table (for
    /// `+1`, the area code), or `nil` when no prefix is known.
    public static func country(of number: PhoneNumber) -> String? {
        let digits = number.digits
        // +1 900 and +1 976 are premium-rate lines, the pumpers' own: no country allows them.
        if digits.hasPrefix("1900") || digits.hasPrefix("1976") { return nil }
        for length in stride(from: min(4, digits.count), through: 1, by: -1) {
            if let country = prefixes[String(digits.prefix(length))] { return country }
        }
        return nil
    }

    /// Every code ``country(of:)`` can answer, sorted: what ``init(_:)`` accepts.
    public static var knownCodes: [String] { known.sorted() }

    private static let known = Set(prefixes.values)

    /// Calling-code prefix (digits after `+`) → ISO code; `+1` entries carry the area code.
    private static let prefixes: [String: String] = {
        var prefixes = ["1": "US"]
        for (country, areas) in northAmerica {
            for area in areas.split(separator: " ") { prefixes["1" + area] = country }
        }
        for (country, codes) in international {
            for code in codes.split(separator: " ") { prefixes[String(code)] = country }
        }
        return prefixes
    }()

    /// NANP area codes that are not the mainland US. Canada's include its overlays; US
    /// territories (`PR`, `GU`, …) keep their own codes so an operator can allow them apart.
    private static let northAmerica: [(String, String)] = [
        ("CA", "204 226 236 249 250 257 263 289 306 343 354 365 367 368 382 387 403 416 418 428 431 437 438 450 460 468 474 506 514 519"),
        ("CA", "548 579 581 584 587 604 613 639 647 672 683 705 709 742 753 778 780 782 807 819 825 867 873 879 902 905 942"),
        ("BS", "242"), ("BB", "246"), ("AI", "264"), ("AG", "268"), ("VG", "284"), ("KY", "345"), ("BM", "441"), ("GD", "473"),
        ("TC", "649"), ("JM", "658 876"), ("MS", "664"), ("SX", "721"), ("LC", "758"), ("DM", "767"), ("VC", "784"),
        ("DO", "809 829 849"), ("TT", "868"), ("KN", "869"),
        ("VI", "340"), ("MP", "670"), ("GU", "671"), ("AS", "684"), ("PR", "787 939"),
    ]

    /// Calling codes of common destinations outside the NANP (ITU codes are prefix-free, so
    /// only `+7`'s split needs the longest match).
    private static let international: [(String, String)] = [
        ("GB", "44"), ("IE", "353"), ("FR", "33"), ("DE", "49"), ("ES", "34"), ("IT", "39"), ("NL", "31"), ("BE", "32"),
        ("LU", "352"), ("CH", "41"), ("AT", "43"), ("PT", "351"), ("SE", "46"), ("NO", "47"), ("DK", "45"), ("FI", "358"),
        ("IS", "354"), ("PL", "48"), ("CZ", "420"), ("SK", "421"), ("GR", "30"), ("HU", "36"), ("RO", "40"), ("BG", "359"),
        ("HR", "385"), ("SI", "386"), ("RS", "381"), ("EE", "372"), ("LV", "371"), ("LT", "370"), ("UA", "380"), ("TR", "90"),
        ("CY", "357"), ("MT", "356"), ("RU", "7"), ("KZ", "76 77"),
        ("MX", "52"), ("BR", "55"), ("AR", "54"), ("CL", "56"), ("CO", "57"), ("PE", "51"), ("VE", "58"), ("EC", "593"),
        ("UY", "598"), ("CR", "506"), ("PA", "507"), ("GT", "502"),
        ("AU", "61"), ("NZ", "64"), ("IN", "91"), ("PK", "92"), ("BD", "880"), ("LK", "94"), ("JP", "81"), ("KR", "82"),
        ("CN", "86"), ("HK", "852"), ("TW", "886"), ("SG", "65"), ("MY", "60"), ("PH", "63"), ("ID", "62"), ("TH", "66"),
        ("VN", "84"),
        ("IL", "972"), ("AE", "971"), ("SA", "966"), ("QA", "974"), ("KW", "965"), ("JO", "962"), ("EG", "20"), ("MA", "212"),
        ("ZA", "27"), ("NG", "234"), ("KE", "254"), ("GH", "233"),
    ]
}
