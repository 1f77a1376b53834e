import LifeSignalDomain
import Testing

@Suite("SMS countries")
struct SMSCountriesTests {
    private func country(_ text: String) throws -> String? { SMSCountries.country(of: try PhoneNumber(text)) }

    @Test("+1 is read by area code: Canada, the Caribbean and US territories are not the US")
    func northAmerica() throws {
        #expect(try country("+14155550100") == "US")
        #expect(try country("+1 (212) 555-0100") == "US")
        #expect(try country("+14165550100") == "CA")
        #expect(try country("+16045550100") == "CA")
        #expect(try country("+19425550100") == "CA")
        #expect(try country("+18765550100") == "JM")
        #expect(try country("+16585550100") == "JM")
        #expect(try country("+18095550100") == "DO")
        #expect(try country("+18495550100") == "DO")
        #expect(try country("+17875550100") == "PR")
        #expect(try country("+19395550100") == "PR")
        #expect(try country("+16715550100") == "GU")
        let us = try SMSCountries.parse("US")
        #expect(us.allows(try PhoneNumber("+14155550100")))
        for foreign in ["+14165550100", "+18765550100", "+18095550100", "+17875550100", "+12425550100"] {
            #expect(!us.allows(try PhoneNumber(foreign)), "\(foreign)")
        }
        #expect(try SMSCountries.parse("US,PR").allows(try PhoneNumber("+17875550100")))
        // Premium-rate lines under +1 belong to no country, so no list allows them.
        #expect(try country("+19005550100") == nil)
        #expect(!us.allows(try PhoneNumber("+19765550100")))
    }

    @Test("other countries by the longest calling code; +7 split between Russia and Kazakhstan")
    func callingCodes() throws {
        #expect(try country("+447700900123") == "GB")
        #expect(try country("+353861234567") == "IE")
        #expect(try country("+351912345678") == "PT")
        #expect(try country("+35012345678") == nil)
        #expect(try country("+85212345678") == "HK")
        #expect(try country("+85512345678") == nil)
        #expect(try country("+201001234567") == "EG")
        #expect(try country("+212612345678") == "MA")
        #expect(try country("+74951234567") == "RU")
        #expect(try country("+77011234567") == "KZ")
        #expect(try country("+61412345678") == "AU")
        let europe = try SMSCountries.parse("GB,IE")
        #expect(europe.allows(try PhoneNumber("+447700900123")))
        #expect(!europe.allows(try PhoneNumber("+33612345678")))
    }

    @Test("an unknown calling code has no country and is never allowed")
    func unknownCallingCode() throws {
        let number = try PhoneNumber("+9991234567")
        #expect(SMSCountries.country(of: number) == nil)
        #expect(!(try SMSCountries(SMSCountries.knownCodes)).allows(number))
    }

    @Test("the setting: trimmed, any case, empty entries ignored, sorted for the banner")
    func parse() throws {
        let countries = try SMSCountries.parse(" us, Ca ,,gb , ")
        #expect(countries.codes == ["CA", "GB", "US"])
        #expect(countries.description == "CA, GB, US")
        #expect(countries == (try SMSCountries(["GB", "CA", "US", "us"])))
        #expect(SMSCountries.knownCodes.contains("JM") && SMSCountries.knownCodes == SMSCountries.knownCodes.sorted())
    }

    @Test("an unknown code is refused by name with the known ones; an empty list is refused")
    func refusals() throws {
        let known = SMSCountries.knownCodes.joined(separator: ", ")
        #expect(throws: DomainError.invalidArgument("\"uk\" is not a country LifeSignal can send SMS to; known codes: \(known)")) {
            try SMSCountries.parse("US, uk")
        }
        let error = #expect(throws: DomainError.self) { try SMSCountries(["XX"]) }
        #expect(error?.message.contains("\"XX\"") == true && error?.message.contains("US") == true)
        let empty = DomainError.invalidArgument("Name at least one country to send SMS to, as ISO codes such as US,CA,GB")
        #expect(throws: empty) { try SMSCountries.parse("") }
        #expect(throws: empty) { try SMSCountries.parse(" , ,") }
        #expect(throws: empty) { try SMSCountries([String]()) }
    }

    @Test("the default is the sending number's country; none for a Messaging Service or an unknown country")
    func defaultForSender() throws {
        #expect(SMSCountries.defaultFor(sender: "+14155550100") == (try SMSCountries(["US"])))
        #expect(SMSCountries.defaultFor(sender: "+14165550100")?.codes == ["CA"])
        #expect(SMSCountries.defaultFor(sender: "+447700900123")?.description == "GB")
        #expect(SMSCountries.defaultFor(sender: "MG123") == nil)
        #expect(SMSCountries.defaultFor(sender: "LifeSignal") == nil)
        #expect(SMSCountries.defaultFor(sender: "+9991234567") == nil)
    }
}
