import LifeSignalDomain
import Testing

@Suite("SMS replies, read loosely")
struct SMSReplyTests {
    @Test("carrier keywords are the whole message, in any case, with punctuation and spaces around")
    func keywords() {
        for text in ["STOP", "stop", " Stop. ", "STOP ALL", "stopall", "Unsubscribe", "cancel", "END", "quit", "opt out", "REVOKE"] {
            #expect(SMSReply(text) == .stop, "\(text)")
        }
        for text in ["START", "unstop", "Yes", "subscribe"] { #expect(SMSReply(text) == .start, "\(text)") }
        for text in ["HELP", "help!", "Info"] { #expect(SMSReply(text) == .help, "\(text)") }
        #expect(SMSReply("please stop worrying") == .unclear, "a keyword inside a sentence is not the keyword")
    }

    @Test("a check-in is a message that opens by saying the person is fine")
    func checkIns() {
        for text in ["ok", "OK", "Ok!", "okay", "I'm fine", "im ok", "I am OK thanks", "fine", "all good", "Checking in", "👍", "k"] {
            #expect(SMSReply(text) == .checkIn(pin: nil), "\(text)")
        }
    }

    @Test("a PIN of 4 to 8 digits anywhere in a check-in is taken, and a PIN alone is a check-in")
    func pins() {
        for text in ["OK 4821", "4821 ok", "4821", " 4821. ", "I'm fine 4821", "okay, 4821 thanks"] {
            #expect(SMSReply(text) == .checkIn(pin: "4821"), "\(text)")
        }
        #expect(SMSReply("OK 12345678") == .checkIn(pin: "12345678"))
        #expect(SMSReply("OK 123") == .checkIn(pin: nil), "3 digits are not a PIN: the server asks for it")
        #expect(SMSReply("OK 123456789") == .checkIn(pin: nil), "9 digits are not a PIN")
        #expect(SMSReply("4821 help") == .unclear, "a PIN does not make any message a check-in")
    }

    @Test("anything else is unclear, including a message that is not fine")
    func unclear() {
        for text in ["", "not ok", "help me", "I fell", "call me", "who is this?", "no", "123"] {
            #expect(SMSReply(text) == .unclear, "\(text)")
        }
    }
}
