// Package linktext writes a text, such as a bot's source, into a link's
// parameter and reads it back: deflated, then in URL-safe base64 without
// padding, so a link to a match can carry the bot written in the page.
package linktext

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
)

// Encode is text deflated and in URL-safe base64.
func Encode(text string) string {
	var b bytes.Buffer
	zw, _ := flate.NewWriter(&b, flate.BestCompression) // the level is valid
	zw.Write([]byte(text))                              // a bytes.Buffer does not fail
	zw.Close()
	return base64.RawURLEncoding.EncodeToString(b.Bytes())
}

// ErrTooLong is returned by Decode for a text that inflates past its limit.
var ErrTooLong = errors.New("the text inflates past its limit")

// Decode reads what Encode wrote, refusing a text that inflates past
// limit bytes (a link is anyone's; its deflate could be a bomb).
func Decode(s string, limit int) (string, error) {
	z, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return "", fmt.Errorf("damaged: %v", err)
	}
	data, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(z)), int64(limit)+1))
	if err != nil {
		return "", fmt.Errorf("damaged: %v", err)
	}
	if len(data) > limit {
		return "", ErrTooLong
	}
	return string(data), nil
}
