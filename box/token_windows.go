//go:build windows

package box

import (
	"fmt"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// A program on Windows runs with a restricted token of low integrity, as
// Chromium's and Internet Explorer's protected mode ran their renderers:
// its token is arena's user's with every privilege but
// SeChangeNotifyPrivilege removed (DISABLE_MAX_PRIVILEGE), at low
// integrity, so that it may write only objects labelled low (its box
// directory, labelled so by boxSDDL), may not open arena's or another
// program's process for writing (no-write-up), and may not drive a
// window of a higher level (UIPI). It reads what the user may read: the
// user's files are not hidden from it (Windows has no mount namespace);
// the tournament's directory and other boxes are kept from it by their
// own ACL (boxSDDL) and by no-write-up.
//
// See: CreateRestrictedToken (securitybaseapi.h), SetTokenInformation
// with TokenIntegrityLevel, "Designing Applications to Run at a Low
// Integrity Level", SetNamedSecurityInfoW with LABEL_SECURITY_INFORMATION
// (Microsoft Learn); Go's SysProcAttr.Token, which starts the process
// with CreateProcessAsUser.

var procCreateRestrictedToken = windows.NewLazySystemDLL("advapi32.dll").NewProc("CreateRestrictedToken")

const disableMaxPrivilege = 0x1 // DISABLE_MAX_PRIVILEGE

// lowToken is a restricted primary token of low integrity made from
// arena's own.
func lowToken() (windows.Token, error) {
	var own windows.Token
	if err := windows.OpenProcessToken(windows.CurrentProcess(),
		windows.TOKEN_DUPLICATE|windows.TOKEN_ADJUST_DEFAULT|windows.TOKEN_QUERY|windows.TOKEN_ASSIGN_PRIMARY, &own); err != nil {
		return 0, fmt.Errorf("OpenProcessToken: %v", err)
	}
	defer own.Close()
	var restricted windows.Token
	r, _, err := procCreateRestrictedToken.Call(uintptr(own), disableMaxPrivilege, 0, 0, 0, 0, 0, 0, uintptr(unsafe.Pointer(&restricted)))
	if r == 0 {
		return 0, fmt.Errorf("CreateRestrictedToken: %v", err)
	}
	low, err := windows.CreateWellKnownSid(windows.WinLowLabelSid)
	if err != nil {
		restricted.Close()
		return 0, err
	}
	label := windows.Tokenmandatorylabel{Label: windows.SIDAndAttributes{Sid: low, Attributes: windows.SE_GROUP_INTEGRITY}}
	if err := windows.SetTokenInformation(restricted, windows.TokenIntegrityLevel, (*byte)(unsafe.Pointer(&label)), label.Size()); err != nil {
		restricted.Close()
		return 0, fmt.Errorf("SetTokenInformation(TokenIntegrityLevel): %v", err)
	}
	return restricted, nil
}

// secureDir gives a box directory its own ACL and a low label (boxSDDL),
// for the user of token.
func secureDir(dir string, token windows.Token) error {
	user, err := token.GetTokenUser()
	if err != nil {
		return err
	}
	sd, err := windows.SecurityDescriptorFromString(boxSDDL(user.User.Sid.String()))
	if err != nil {
		return err
	}
	dacl, _, err := sd.DACL()
	if err != nil {
		return err
	}
	sacl, _, err := sd.SACL()
	if err != nil {
		return err
	}
	return windows.SetNamedSecurityInfo(dir, windows.SE_FILE_OBJECT,
		windows.DACL_SECURITY_INFORMATION|windows.PROTECTED_DACL_SECURITY_INFORMATION|windows.LABEL_SECURITY_INFORMATION,
		nil, nil, dacl, sacl)
}

// withLowToken has cmd started with a low token, its box's directories
// secured for it; the token is closed once the program has started.
func (b *Box) withLowToken(attr *syscall.SysProcAttr) error {
	tok, err := lowToken()
	if err != nil {
		return err
	}
	for _, d := range []string{b.root, b.Dir, b.tmp()} {
		if err := secureDir(d, tok); err != nil {
			tok.Close()
			return fmt.Errorf("%s: %v", d, err)
		}
	}
	attr.Token = syscall.Token(tok)
	b.os.token = tok
	return nil
}
