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
        for text in ["ok", "OK", "Ok!", "okay", "OK 4821", "I'm fine", "im ok", "I am OK thanks", "fine", "all good", "Checking in", "👍", "k"] {
            #expect(SMSReply(text) == .checkIn, "\(text)")
        }
    }

    @Test("anything else is unclear, including a message that is not fine")
    func unclear() {
        for text in ["", "not ok", "help me", "I fell", "call me", "who is this?", "no", "4821"] {
            #expect(SMSReply(text) == .unclear, "\(text)")
        }
    }
}
