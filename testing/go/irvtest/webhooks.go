package irvtest

// Webhooks: a receiver on loopback subscribed to the emulator's events, for a test that waits for the
// webhook of a write.
//
//	sink := irv.Subscribe(t, irv.OrgUID)
//	// … stack.Up …
//	event := sink.WaitFor(t, "dev.chainguard.api.iam.group.created.v1", 10*time.Second)
//
// It records what arrives without checking the token: check that with your own receiver
// (docs/testing.md shows one in the shape of the published events/receiver).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// Event is one CloudEvent a WebhookSink received (binary or structured mode).
type Event struct {
	ID      string
	Type    string
	Subject string
	Source  string
	// Extensions are the extension attributes: group, bodytype, audience, …
	Extensions map[string]string
	// Data is the event's data: {"actor": {"subject"}, "body"}.
	Data json.RawMessage
	// Authorization is the request's Authorization header (a Bearer token of the emulator's issuer).
	Authorization string
}

// Body decodes the data's body (the protojson of the message named by the bodytype extension) into v.
func (e Event) Body(v any) error {
	var data struct {
		Body json.RawMessage `json:"body"`
	}
	if err := json.Unmarshal(e.Data, &data); err != nil {
		return err
	}
	if len(data.Body) == 0 {
		return fmt.Errorf("irvtest: the %s event has no body", e.Type)
	}
	return json.Unmarshal(data.Body, v)
}

// WebhookSink is a local receiver subscribed to a group's events.
type WebhookSink struct {
	// URL is where it listens.
	URL string
	// SubscriptionUID is the uid of its subscription.
	SubscriptionUID string

	mu      sync.Mutex
	events  []Event
	arrived chan struct{}
}

// Subscribe starts a receiver on loopback and subscribes it to the events of group (and of every
// group below it) with the admin token. The subscription is deleted and the receiver stopped at
// t.Cleanup.
func (e *Emulator) Subscribe(t testing.TB, group string) *WebhookSink {
	t.Helper()
	sink := &WebhookSink{arrived: make(chan struct{}, 1)}
	server := httptest.NewServer(http.HandlerFunc(sink.serve))
	sink.URL = server.URL + "/"
	uid, err := e.call(http.MethodPost, "/events/v2beta1/subscriptions/"+group, map[string]string{"sink": sink.URL})
	if err != nil {
		server.Close()
		t.Fatalf("irvtest: subscribing %s to group %s: %v", sink.URL, group, err)
	}
	sink.SubscriptionUID = uid
	t.Cleanup(func() {
		_, _ = e.call(http.MethodDelete, "/events/v2beta1/subscriptions/"+uid, nil)
		server.Close()
	})
	return sink
}

// Events returns every event received so far, in arrival order.
func (s *WebhookSink) Events() []Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Event(nil), s.events...)
}

// WaitFor returns the first event of eventType received, waiting at most timeout; it fails the test
// naming what did arrive.
func (s *WebhookSink) WaitFor(t testing.TB, eventType string, timeout time.Duration) Event {
	t.Helper()
	return s.WaitForSubject(t, eventType, "", timeout)
}

// WaitForSubject is WaitFor for the event of one object (its uid is the event's subject); an empty
// subject matches any.
func (s *WebhookSink) WaitForSubject(t testing.TB, eventType, subject string, timeout time.Duration) Event {
	t.Helper()
	deadline := time.After(timeout)
	for {
		var got []string
		for _, ev := range s.Events() {
			if ev.Type == eventType && (subject == "" || ev.Subject == subject) {
				return ev
			}
			got = append(got, ev.Type+" "+ev.Subject)
		}
		select {
		case <-s.arrived:
		case <-deadline:
			t.Fatalf("irvtest: no %s event %s within %s; received: %v", eventType, subject, timeout, got)
		}
	}
}

func (s *WebhookSink) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	ev, ok := parseEvent(r, body)
	if !ok {
		http.Error(w, "not a CloudEvent", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.events = append(s.events, ev)
	s.mu.Unlock()
	select {
	case s.arrived <- struct{}{}:
	default:
	}
	w.WriteHeader(http.StatusOK)
}

// parseEvent reads the HTTP binding: structured mode (application/cloudevents+json) or binary mode
// (ce-* headers, percent-encoded, and the data as the body).
func parseEvent(r *http.Request, body []byte) (Event, bool) {
	ev := Event{Extensions: map[string]string{}, Authorization: r.Header.Get("Authorization")}
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/cloudevents+json") {
		var doc map[string]json.RawMessage
		if json.Unmarshal(body, &doc) != nil {
			return ev, false
		}
		for k, raw := range doc {
			var s string
			_ = json.Unmarshal(raw, &s)
			switch k {
			case "id":
				ev.ID = s
			case "type":
				ev.Type = s
			case "subject":
				ev.Subject = s
			case "source":
				ev.Source = s
			case "data":
				ev.Data = raw
			case "specversion", "time", "datacontenttype", "dataschema":
			default:
				ev.Extensions[k] = s
			}
		}
		return ev, ev.ID != "" && ev.Type != ""
	}
	for name, values := range r.Header {
		lower := strings.ToLower(name)
		if !strings.HasPrefix(lower, "ce-") || len(values) == 0 {
			continue
		}
		value, err := url.PathUnescape(values[0])
		if err != nil {
			value = values[0]
		}
		switch key := strings.TrimPrefix(lower, "ce-"); key {
		case "id":
			ev.ID = value
		case "type":
			ev.Type = value
		case "subject":
			ev.Subject = value
		case "source":
			ev.Source = value
		case "specversion", "time", "dataschema":
		default:
			ev.Extensions[key] = value
		}
	}
	ev.Data = json.RawMessage(body)
	return ev, ev.ID != "" && ev.Type != ""
}

// call makes one admin request of the API and returns the answer's uid.
func (e *Emulator) call(method, path string, body any) (string, error) {
	var reader io.Reader
	if body != nil {
		encoded, err := json.Marshal(body)
		if err != nil {
			return "", err
		}
		reader = bytes.NewReader(encoded)
	}
	req, err := http.NewRequest(method, e.BaseURL+path, reader)
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "Bearer "+e.AdminToken)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	answer, _ := io.ReadAll(res.Body)
	if res.StatusCode/100 != 2 {
		return "", fmt.Errorf("HTTP %d: %s", res.StatusCode, strings.TrimSpace(string(answer)))
	}
	var made struct {
		UID string `json:"uid"`
	}
	_ = json.Unmarshal(answer, &made)
	return made.UID, nil
}
