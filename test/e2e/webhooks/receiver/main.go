// Command receiver stands in for a customer's webhook receiver written with the published
// chainguard.dev/sdk/events/receiver package (receiver.NewHTTPHandler). That module is not on the Go
// module proxy this repository's tests can reach, so this program makes the same checks with the same
// libraries (github.com/cloudevents/sdk-go/v2 and github.com/coreos/go-oidc/v3), in the same order,
// answering the same statuses:
//   - the request must be a CloudEvent of the HTTP binding (binary or structured mode), else 400;
//   - `Authorization: Bearer <token>` must be present, else 401;
//   - the token must verify against the issuer's discovery document and JWKS, with audience
//     `customer`, its subject must be `webhook:<group>`, and its claim `webhook.digest` must be
//     `sha256:<hex of the SHA-256 of the event's data>`, else 403.
//
// It then decodes the data as the published events.Occurrence ({"actor", "body"}) and prints each
// accepted event as one JSON line on stdout; each refusal goes to stderr with its reason. Usage:
//
//	receiver -issuer <issuerUrl of the emulator's ready line> -group <org uid>
//
// It prints {"url": "http://127.0.0.1:<port>/"} first, once it listens.
package main

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"

	cloudevents "github.com/cloudevents/sdk-go/v2"
	"github.com/cloudevents/sdk-go/v2/binding"
	cehttp "github.com/cloudevents/sdk-go/v2/protocol/http"
	"github.com/coreos/go-oidc/v3/oidc"
)

// webhookClaims are the custom claims of the webhook token (the published events.WebhookCustomClaims).
type webhookClaims struct {
	Webhook struct {
		Digest string `json:"digest"`
	} `json:"webhook"`
}

// occurrence is the data of an event (the published events.Occurrence).
type occurrence struct {
	Actor *struct {
		Subject string `json:"subject"`
	} `json:"actor,omitempty"`
	Body json.RawMessage `json:"body,omitempty"`
}

type accepted struct {
	ID           string `json:"id"`
	Type         string `json:"type"`
	Subject      string `json:"subject"`
	Group        string `json:"group"`
	BodyType     string `json:"bodytype"`
	Audience     string `json:"audience"`
	ActorSubject string `json:"actorSubject"`
	HasBody      bool   `json:"hasBody"`
}

type refusal struct {
	status int
	reason string
}

func (r refusal) Error() string { return r.reason }

func main() {
	issuer := flag.String("issuer", "", "the OIDC issuer that signs the webhook tokens")
	group := flag.String("group", "", "the group the receiver is set up for")
	flag.Parse()
	if *issuer == "" || *group == "" {
		fmt.Fprintln(os.Stderr, "usage: receiver -issuer URL -group UID")
		os.Exit(2)
	}
	ctx := context.Background()
	provider, err := oidc.NewProvider(ctx, *issuer)
	if err != nil {
		fmt.Fprintf(os.Stderr, "failed to create provider: %v\n", err)
		os.Exit(1)
	}
	verifier := provider.Verifier(&oidc.Config{ClientID: "customer"})
	var out sync.Mutex

	verify := func(r *http.Request, event cloudevents.Event) error {
		auth := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		if auth == "" {
			return refusal{http.StatusUnauthorized, "Unauthorized"}
		}
		var claims webhookClaims
		tok, err := verifier.Verify(r.Context(), auth)
		switch {
		case err != nil:
			return refusal{http.StatusForbidden, "unable to verify token: " + err.Error()}
		case !strings.HasPrefix(tok.Subject, "webhook:"):
			return refusal{http.StatusForbidden, fmt.Sprintf("subject should be from the webhook component, got: %q", tok.Subject)}
		case strings.TrimPrefix(tok.Subject, "webhook:") != *group:
			return refusal{http.StatusForbidden, fmt.Sprintf("this token is intended for %q, wanted one for %q", strings.TrimPrefix(tok.Subject, "webhook:"), *group)}
		case tok.Claims(&claims) != nil:
			return refusal{http.StatusForbidden, "this token does not contain the webhook claims"}
		}
		sum := sha256.Sum256(event.Data())
		if got := fmt.Sprintf("sha256:%x", sum); got != claims.Webhook.Digest {
			return refusal{http.StatusForbidden, fmt.Sprintf("this token is intended for a message with digest %q, got message with digest %q", claims.Webhook.Digest, got)}
		}
		return nil
	}

	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		event, err := binding.ToEvent(r.Context(), cehttp.NewMessageFromHttpRequest(r))
		if err != nil {
			fmt.Fprintf(os.Stderr, "400: not a well-formed CloudEvent: %v\n", err)
			http.Error(w, "not a well-formed CloudEvent", http.StatusBadRequest)
			return
		}
		if err := verify(r, *event); err != nil {
			status := http.StatusInternalServerError
			if ref, ok := err.(refusal); ok {
				status = ref.status
			}
			fmt.Fprintf(os.Stderr, "%d: %s: %v\n", status, event.Type(), err)
			http.Error(w, err.Error(), status)
			return
		}
		var occ occurrence
		if err := json.Unmarshal(event.Data(), &occ); err != nil {
			fmt.Fprintf(os.Stderr, "500: %s: the data is not an occurrence: %v\n", event.Type(), err)
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		ext := event.Extensions()
		str := func(k string) string { s, _ := ext[k].(string); return s }
		line := accepted{
			ID: event.ID(), Type: event.Type(), Subject: event.Subject(),
			Group: str("group"), BodyType: str("bodytype"), Audience: str("audience"),
			HasBody: len(occ.Body) > 0,
		}
		if occ.Actor != nil {
			line.ActorSubject = occ.Actor.Subject
		}
		encoded, _ := json.Marshal(line)
		out.Lock()
		fmt.Println(string(encoded))
		out.Unlock()
		w.WriteHeader(http.StatusOK)
	})

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("{\"url\":\"http://%s/\"}\n", ln.Addr())
	if err := http.Serve(ln, handler); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
