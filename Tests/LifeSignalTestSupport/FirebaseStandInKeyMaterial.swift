/// Two fixed RSA-2048 signing keys with self-signed certificates, standing in for Google's
/// `securetoken` keys: the x509 document Google publishes needs a certificate per key, and
/// making one at run time would need a certificate library the tests do not otherwise use.
/// Made with `openssl genrsa 2048` and `openssl req -x509`; for tests only.
enum FirebaseStandInKeyMaterial {
    static let privateKeyA = """
        -----BEGIN PRIVATE KEY-----
        MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDpFsY9TiRDKSsA
        QOkDX4OXqK5g8ZQAvfbXaI0RJNRthJkXLSnn3FTX7NnGEgGOXzEkuoMp0wl0xjoy
        KY2rd2xxGFhpXAUXNf+UgWaz3dmg5CcNMGdYf3q1LSmhIHQS40mnbctEXRkRVnxi
        1CqTrmtT2k2WJZKhLKV7e2NEA/S/gb1wQ+FaaLyFJMFk7Jn0oVMti4wgkbOK+cp+
        RHR3JIKcNoGH+kyxH0d9b1/w77Bw5z4xV/5SJDdZqifMTLrnb5rCY5oqw9WfNbn/
        mQxwyOHeKs98mzgkBEGUVgzJkyY+TjiWSNhFC4B7SnQWneYRoCdlRSapCEjZQVDt
        jxXC/2yLAgMBAAECggEAAtLG9vIjMqRlLsfFKsh1kG43d9l6mKG0bjqIJDzad93N
        zuqPTI2Dgj65CpL9mCsOA4Bg21kA5HxhiGmuxh9tswGqUdMOsA/JjJPJWdoQ60fS
        3fAyqESZs2fHI8+qqESUMqYmpVQtXA48oSPUb4fYKU1bzZBJ8jrXYaNbz0nu+oIt
        YmV+Vk/cOsjxmYPh/+hcIXudjApOj3DrVZn9ic3yNG0XytY9nG+t5LgzbVwof0UV
        ctjMXgESko779+An1eNTYos2TywIBz2GhqCVLxfb84ukk/CWacyU/Kj2wGQz6kad
        2+bSQ2FGUPCN+qHhOCOx1HJdegKcbn/Xczyx8q59QQKBgQD594dkrPq27kqdaWLY
        oHGhH1bDenkbe2eJG9QooLawHL819k87bK637So1cvj1DHog+3bwQVY95Vu+SYHb
        PKQYOa9+WQ6DNrBq7amU4gKALdSniffhT9LIfSCg6a1Ait1dlWFEEFHtK5KEdr7q
        4/DmX7WSoN4jmPhq3E3ovcrCQQKBgQDutvYwvbSUPg8QwRD6vsJqB9abuCYNXZ6V
        EBmcJiRK4UxViPNSMPFy5Rt22QnbxYWo+gg4wE9fv1+aTiIzBASOPUOpiQoEcLoO
        k8708q2JK5pt9E37R4mG4SeHfmogBiXxCL9SkaRxb10g9VJRVGkfi4tpILLztsOR
        LKw8N4ijywKBgE59tosbciKtEsr5A6voPaYNdC4vsAW8K1e3YFhdluAYNsaYEGsl
        hnuEwmNENf6kq1jd/YwVyCHpenR3GoqgMRrWSlAPYOo86wq4lC6HBagAPC1bunWK
        njKMcAl3Nwr0T+yJ8p/vy/oAW6KysuKJLuT4GsjvMLHW3/KWOPSjXB7BAoGBALMR
        2LhTdoTF0PNWgPA37Qsw+hIyH4ljMzTKsQtrqUnqnCKF61E6mcUAjIuo4DZWg59w
        gH5h9Kj0nDjaZ9kxKGGzH3Cr9jHChi+tPVCOQxNk/CGDZIQc89OUTtzbPazsL8YS
        M8MysdLOIWQ54xhTY9BgE6I2/0bHUQk0I7fASOXlAoGAQ5IqKdSVUnvZPQHSZVnU
        hwO6YHGf1WYlOF6THhn96NBnLrCjE/Tkeo0SEvQy/wqbFaGozRn0wUHbyK53Eg0L
        1Xu7G7XzuzpGKqNAUf5+cY1/ABU2AYROioXZDReO+KbfcO/TyOP4ihwWScfEEMSR
        Y2LVp/UXPIKS284R/HGxC0s=
        -----END PRIVATE KEY-----
        """
    static let certificateA = """
        -----BEGIN CERTIFICATE-----
        MIIDHzCCAgegAwIBAgIURTScRS1d+CR/eVp0MXL5+Spn3DYwDQYJKoZIhvcNAQEL
        BQAwHjEcMBoGA1UEAwwTc2VjdXJldG9rZW4tc3RhbmRpbjAgFw0yNjExMjYwNzE0
        MzlaGA8yMTI2MTEwMjA3MTQzOVowHjEcMBoGA1UEAwwTc2VjdXJldG9rZW4tc3Rh
        bmRpbjCCASIwDQYJKoZIhvcNAQEBBQADggEPADCCAQoCggEBAOkWxj1OJEMpKwBA
        6QNfg5eormDxlAC99tdojREk1G2EmRctKefcVNfs2cYSAY5fMSS6gynTCXTGOjIp
        jat3bHEYWGlcBRc1/5SBZrPd2aDkJw0wZ1h/erUtKaEgdBLjSadty0RdGRFWfGLU
        KpOua1PaTZYlkqEspXt7Y0QD9L+BvXBD4VpovIUkwWTsmfShUy2LjCCRs4r5yn5E
        dHckgpw2gYf6TLEfR31vX/DvsHDnPjFX/lIkN1mqJ8xMuudvmsJjmirD1Z81uf+Z
        DHDI4d4qz3ybOCQEQZRWDMmTJj5OOJZI2EULgHtKdBad5hGgJ2VFJqkISNlBUO2P
        FcL/bIsCAwEAAaNTMFEwHQYDVR0OBBYEFMRBCojwI9sOmiTwjaI3Egwon8oLMB8G
        A1UdIwQYMBaAFMRBCojwI9sOmiTwjaI3Egwon8oLMA8GA1UdEwEB/wQFMAMBAf8w
        DQYJKoZIhvcNAQELBQADggEBAH3nwt/bUxUAaIYhP6o7qVdCyRpCjsgLHxEOyT09
        8mlz0PUcy+xfj3BxdHN8umnVnFWTeZtHXb3LNi7VsvZE3HWJYXG+ANFiSkVlQ2Wc
        LjDx8xhtOxEaJPewWQ21UkVr/Jj2ng0uKI3lv+V7QgleB9Zw0T7w+rKsGAiM2P2z
        u1j5VIXdWfuBhV/+HIxL8IwapZdGU+PR7uU09enOZKGwi/1qOHiUzlRYEmwkst3F
        fP9PxowrLZftge3/dy0S1HtHk1GDJOrmEx5U7phDRWNXPooPkuf4hGj8WgJHVd4M
        HFdnyvI04VRKqD9dg2MgSjkTnDUCuvO10i5LPMylGoyrUTU=
        -----END CERTIFICATE-----
        """
    static let privateKeyB = """
        -----BEGIN PRIVATE KEY-----
        MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQCgr8vAXFTuRopc
        M/xfhROApBo3oDLoMRPlfl+JP8t5XSRn89CfmwVwTUU1156yGL35+mP2u+ncSSR+
        Ulo0zjl2jcAO3wQF2lsUcjmURykSdKnuB/13wu+WoN30MHZHyRIm+taHHfwrMhyi
        gxvZqw1PdbpYS7aOQWzZMlUaWMgvImN5/wv7Gwoh/9F5sjv94cgDLt9xYygkLJgG
        bOmuStpdKSU4a+VpGZHL8Jw4SX0H6t0DBaG/aMYqrrzQwt+peTzLftKvrby8JKI3
        A3N+5Lcwpn2yUX270xvdF/WwiP8TvsPJZz/mL2CQuYt6UGFagJE2bhuczJRVb56s
        P4dJ8a2jAgMBAAECggEACTzB6k+EhGQivRUx+23DhsAoT61Sb92uZqGCrXmw4Uu0
        9ZLjGeHICMIwad143oUkmrPFvl/kHElKI0bpr6JxVDrm4RP5/7ojRUQhwj/rAQga
        4rer3xAiRNb/m3OTwSGyfPIrlf3nyrXpRoBh//vg2oIKkdvcZUYmkz/c+5RCAc+R
        dWeIdDX7Zon2qnLlw7wx3+zAgAff1Cz+6+uG/oSfp72UZvWTYMclEPBUj22PPr8A
        4isoFYtXyDEinRmnUUkJaOV8QcINYj/Qr1p3Qakyhb8KBIZ6TXGlDTnR7kdHUmF2
        O2ia9w4yUvb6D4LLLnxhl0iKbYkthdsWcm8nQ6liAQKBgQDM1ydFCAdCNSZ95S95
        IX2r6HR9YmHXWxyuBiM9XZbaQqYiiB5CSw3bDOeIf4JSRXQYvXWHgzcmTD4ohGXQ
        z7DHxMJm5SGGqQ1AhQ2rebVpKwqsjUrJUvCCD7j33T8fe3uRJyn9L+LDS9z9jfbR
        /5PaDdTLBvYW+kjyY0OWhx/TowKBgQDI0Ze+ioqMmpI8wUkGBSEsB8ult5i3fN5f
        Sa1CT5LuYMFySw9WpmtC9FlTVsldFuiKGF+r1mBaA66HTc5nSo4kpYHfQUTAq9QV
        AKtefGfK2V6K4WH5Apc2Bu7dM+6/CT5MOb5w+Y7w+M43HlYu8yCfq7uMCTWDXggK
        h5fE8jReAQKBgQC2Uuc8NXoofyCEvGM2AQ5X3i8Zj2EhC5MKfqINM+la2in/4IJ2
        ZVGu4NyRDVWVHwbIIpKjDLMg3ooRDE+HveVO2p5icZ4Wuw/1lrhlIY7MTihRD+46
        Jh221oG/9WkC/6kruN1R47aGOFc6RIslvcP/OYJnOAoAx8P4I0x8hkdY2wKBgGhF
        lAIm04vwUpBjWDRdA31mStKwQwa7OofFrMXqpYNLEAb1fHBklvs7/wmr3YCNfY7+
        2uZRuNPkZ4Hv34V4i9fxbD7tF/LnBYcmQtUbyZTlSxbXslRmiPdPoEWRSp09AnD3
        5q+olRUAS6sJAHz+VukxdX9f5L5iW9CD2UU08gYBAoGBALxjMyI56U1ltL/1MEau
        uLy8MWWJYFILSzHOSbGA8KgQJMdAlfWtuHkXgkAKIsHhh2bIChCrbFRxvUyJ/G+6
        ZqqDqDcOIPKYBvWwTHdVejNaBt/VZBxjzFSzF9NvPVwvL7SGq9XKxeoa9Mgh5MkF
        BGPn1frlyxvq8Evp31iUWx/d
        -----END PRIVATE KEY-----
        """
    static let certificateB = """
        -----BEGIN CERTIFICATE-----
        MIIDHzCCAgegAwIBAgIUM3mO4PGtLm4bm02dlZ17OkqHTwYwDQYJKoZIhvcNAQEL
        BQAwHjEcMBoGA1UEAwwTc2VjdXJldG9rZW4tc3RhbmRpbjAgFw0yNjExMjYwNzE0
        MzlaGA8yMTI2MTEwMjA3MTQzOVowHjEcMBoGA1UEAwwTc2VjdXJldG9rZW4tc3Rh
        bmRpbjCCASIwDQYJKoZIhvcNAQEBBQADggEPADCCAQoCggEBAKCvy8BcVO5Gilwz
        /F+FE4CkGjegMugxE+V+X4k/y3ldJGfz0J+bBXBNRTXXnrIYvfn6Y/a76dxJJH5S
        WjTOOXaNwA7fBAXaWxRyOZRHKRJ0qe4H/XfC75ag3fQwdkfJEib61ocd/CsyHKKD
        G9mrDU91ulhLto5BbNkyVRpYyC8iY3n/C/sbCiH/0XmyO/3hyAMu33FjKCQsmAZs
        6a5K2l0pJThr5WkZkcvwnDhJfQfq3QMFob9oxiquvNDC36l5PMt+0q+tvLwkojcD
        c37ktzCmfbJRfbvTG90X9bCI/xO+w8lnP+YvYJC5i3pQYVqAkTZuG5zMlFVvnqw/
        h0nxraMCAwEAAaNTMFEwHQYDVR0OBBYEFC2AwT0MFJGE+wHAZA3RpbZYKDEXMB8G
        A1UdIwQYMBaAFC2AwT0MFJGE+wHAZA3RpbZYKDEXMA8GA1UdEwEB/wQFMAMBAf8w
        DQYJKoZIhvcNAQELBQADggEBAAOPC7b1AJDgeGmv78zWnJd3Dc+UiBp745eIhvbf
        IdhXoFo6PLw00H3TnR1Z8rtef2R1uUV/hP8LSKrFVoeGPZuj2hZQPnsP61XcYkTf
        r51eQQEimmhforE0DkVOJhMTIy0BUA8kNZwUZOLcM64q+iq6d8CO+VZevfiJdH15
        m0wlSOdQuYYQZwE2RtFGjiURLgEz2CTfL5Pc/y+pFDIlWc7DcuvCUI0evtoLO+RX
        s/BUNCo3Sp7yakII+PGh8Y2vCicMmiyPAmZJTnDsVn81ZX1jW4nrzj6zrPF41zmr
        W8n9HAxSGaHuAEd1KxFlngdg8sefw8qDcVxFHvyXW55ITUk=
        -----END CERTIFICATE-----
        """
}
