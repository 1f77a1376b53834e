import Foundation

/// The region a person picks before typing their number: its calling code and how many
/// national digits a number there has.
///
/// People type numbers the way they see them at home (`(555) 010-0001`, `07700 900123`); the
/// region turns that into E.164 and checks the digit count, so a missing digit is caught
/// before an SMS goes to a stranger. A number typed with a leading `+` is taken as it is.
public struct PhoneRegion: Hashable, Codable, Sendable, Identifiable {
    /// ISO 3166 code (`US`).
    public var id: String
    public var name: String
    /// Calling code digits, without `+` (`1`).
    public var callingCode: String
    /// The national number's allowed lengths, trunk prefix excluded.
    public var nationalDigits: ClosedRange<Int>
    /// Dialled before national numbers at home and dropped in E.164 (`0` in the UK).
    public var trunkPrefix: String?

    public init(id: String, name: String, callingCode: String, nationalDigits: ClosedRange<Int>, trunkPrefix: String? = nil) {
        self.id = id
        self.name = name
        self.callingCode = callingCode
        self.nationalDigits = nationalDigits
        self.trunkPrefix = trunkPrefix
    }

    public static let unitedStates = PhoneRegion(id: "US", name: "United States", callingCode: "1", nationalDigits: 10...10)
    public static let all: [PhoneRegion] = [
        unitedStates,
        PhoneRegion(id: "CA", name: "Canada", callingCode: "1", nationalDigits: 10...10),
        PhoneRegion(id: "GB", name: "United Kingdom", callingCode: "44", nationalDigits: 10...10, trunkPrefix: "0"),
        PhoneRegion(id: "AU", name: "Australia", callingCode: "61", nationalDigits: 9...9, trunkPrefix: "0"),
        PhoneRegion(id: "DE", name: "Germany", callingCode: "49", nationalDigits: 10...11, trunkPrefix: "0"),
        PhoneRegion(id: "FR", name: "France", callingCode: "33", nationalDigits: 9...9, trunkPrefix: "0"),
        PhoneRegion(id: "ES", name: "Spain", callingCode: "34", nationalDigits: 9...9),
        PhoneRegion(id: "MX", name: "Mexico", callingCode: "52", nationalDigits: 10...10),
        PhoneRegion(id: "IN", name: "India", callingCode: "91", nationalDigits: 10...10, trunkPrefix: "0"),
    ]

    /// "10 digits", "10 to 11 digits": what a person is told when a number does not fit.
    public var expectedDigits: String {
        nationalDigits.count == 1 ? "\(nationalDigits.lowerBound) digits" : "\(nationalDigits.lowerBound) to \(nationalDigits.upperBound) digits"
    }

    /// The region with this ISO code, if we know it.
    public static func named(_ id: String) -> PhoneRegion? { all.first { $0.id == id.uppercased() } }

    /// `text` as an E.164 number of this region.
    ///
    /// - Throws: ``DomainError/invalidPhone(_:)`` naming the digit count expected here.
    public func number(from text: String) throws(DomainError) -> PhoneNumber {
        let typed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if typed.hasPrefix("+") { return try PhoneNumber(typed) }
        var digits = typed.filter { !" -.()\u{00A0}".contains($0) }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { throw .invalidPhone(text) }
        if let trunkPrefix, digits.hasPrefix(trunkPrefix), digits.count > nationalDigits.upperBound {
            digits.removeFirst(trunkPrefix.count)
        }
        // Someone in the US may type the country code they see on cards: 1 555 010 0001.
        if digits.hasPrefix(callingCode), !nationalDigits.contains(digits.count),
            nationalDigits.contains(digits.count - callingCode.count)
        {
            digits.removeFirst(callingCode.count)
        }
        guard nationalDigits.contains(digits.count) else { throw .invalidPhone(text) }
        return try PhoneNumber("+" + callingCode + digits)
    }
}
