package config

import (
	"strings"
	"testing"
)

// TestBodyBudget: the body budgets default to 16 MiB and 8 MiB, take bytes or KiB/MiB/GiB from
// a flag or the environment, and refuse less than a commit's 4 MiB, a per-user budget over the
// whole and anything that is not a byte count.
func TestBodyBudget(t *testing.T) {
	t.Parallel()
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	c, err := Load(nil, env(nil))
	if err != nil || c.BodyBudgetOrDefault() != 16<<20 || c.BodyBudgetPerUserOrDefault() != 8<<20 {
		t.Fatalf("defaults: %d, %d, %v", c.BodyBudgetOrDefault(), c.BodyBudgetPerUserOrDefault(), err)
	}
	c, err = Load([]string{"-body-budget", "1GiB"}, env(map[string]string{"HANDY_BODY_BUDGET_PER_USER": "16777216"}))
	if err != nil || c.BodyBudgetOrDefault() != 1<<30 || c.BodyBudgetPerUserOrDefault() != 16<<20 {
		t.Fatalf("set: %d, %d, %v", c.BodyBudgetOrDefault(), c.BodyBudgetPerUserOrDefault(), err)
	}
	c, err = Load([]string{"-body-budget", "4MiB"}, env(nil))
	if err != nil || c.BodyBudgetPerUserOrDefault() != 4<<20 {
		t.Fatalf("a small total caps the per-user default: %d, %v", c.BodyBudgetPerUserOrDefault(), err)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-body-budget", "1MiB"}, "from 4194304"},
		{[]string{"-body-budget", "64MB"}, "byte count"},
		{[]string{"-body-budget", "-1"}, "byte count"},
		{[]string{"-body-budget-per-user", "3MiB"}, "from 4194304"},
		{[]string{"-body-budget", "8MiB", "-body-budget-per-user", "16MiB"}, "must not exceed -body-budget"},
		{[]string{"-body-budget-per-user", "128MiB"}, "must not exceed -body-budget"},
	} {
		if _, err := Load(tt.args, env(nil)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: %v, want an error with %q", tt.args, err, tt.want)
		}
	}
}
