import { useEffect, useRef, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useFeedback } from '@dme/ui';
import { homeOf, MESSAGES } from '@dme/contracts';
import { errorMessage } from '@dme/api-client';
import { useLoginMutation } from '../../api';
import { useSession } from '../../session/session';
import { AuthCard, AuthFrame } from './AuthFrame';

/*
 * Plain elements styled like antd's vertical Form, Input, Input.Password and primary Button: the
 * sign-in page is the first thing every user downloads, and antd's form would be most of it
 * (DESIGN §12). antd (its notification) is fetched only when a sign-in fails.
 */
const CSS = `
.dme-login-item{margin-bottom:24px}
.dme-login-item label{display:inline-block;padding-bottom:8px;font-size:14px;line-height:1.5714;color:rgba(0,0,0,.88)}
.dme-login-input{display:flex;align-items:center;box-sizing:border-box;width:100%;min-height:32px;padding:0 11px;background:#fff;border:1px solid #d9d9d9;border-radius:8px;transition:border-color .2s,box-shadow .2s}
.dme-login-input:hover{border-color:#2a8a92}
.dme-login-input:focus-within{border-color:#0b6e79;box-shadow:0 0 0 2px rgba(11,110,121,.15)}
.dme-login-input[data-invalid=true]{border-color:#ff4d4f}
.dme-login-input[data-invalid=true]:focus-within{box-shadow:0 0 0 2px rgba(255,38,5,.06)}
.dme-login-input input{flex:1;min-width:0;height:30px;padding:4px 0;border:0;outline:0;background:none;font:inherit;color:inherit}
.dme-login-toggle{margin-left:4px;padding:0 4px;border:0;border-radius:4px;background:none;color:rgba(0,0,0,.65);font:inherit;font-size:12px;cursor:pointer}
.dme-login-toggle:hover{color:rgba(0,0,0,.88)}
.dme-login-toggle:focus-visible{outline:2px solid #0b6e79;outline-offset:1px}
.dme-login-error{color:#cf1322;font-size:14px;line-height:1.5714}
.dme-login-submit{display:inline-flex;align-items:center;justify-content:center;gap:8px;width:100%;height:32px;padding:0 15px;border:0;border-radius:8px;background:#0b6e79;color:#fff;font:inherit;box-shadow:0 2px 0 rgba(5,145,140,.1);cursor:pointer;transition:background .2s}
.dme-login-submit:hover{background:#09606a}
.dme-login-submit:focus-visible{outline:3px solid #8cc8ca;outline-offset:1px}
.dme-login-submit[aria-disabled=true]{opacity:.65;cursor:default}
.dme-login-spin{width:12px;height:12px;border-radius:50%;border:2px solid rgba(255,255,255,.45);border-top-color:#fff;animation:dme-login-spin .8s linear infinite}
@keyframes dme-login-spin{to{transform:rotate(360deg)}}
`;

type Field = 'username' | 'password';
type Values = Record<Field, string>;
type Errors = Partial<Record<Field, string>>;

/** The form's rules (SPEC §5): a username that is not only spaces, and a password. */
export function validateLogin(v: Values): Errors {
  const errors: Errors = {};
  if (v.username.trim() === '') errors.username = MESSAGES.login.username;
  if (v.password === '') errors.password = MESSAGES.login.password;
  return errors;
}

export default function LoginPage() {
  const [login, { isLoading }] = useLoginMutation();
  const { user, signedIn } = useSession();
  const navigate = useNavigate();
  const { notify } = useFeedback();
  const [values, setValues] = useState<Values>({ username: '', password: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [showPassword, setShowPassword] = useState(false);
  const inputs = { username: useRef<HTMLInputElement>(null), password: useRef<HTMLInputElement>(null) };

  useEffect(() => {
    if (user) navigate(homeOf(user.userType) ?? '/home', { replace: true });
  }, [user, navigate]);

  // Like antd's Form: a field is checked again on every change.
  const change = (field: Field) => (e: ChangeEvent<HTMLInputElement>) => {
    const next = { ...values, [field]: e.target.value };
    setValues(next);
    setErrors((old) => ({ ...old, [field]: validateLogin(next)[field] }));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (isLoading) return;
    const found = validateLogin(values);
    setErrors(found);
    const first = (['username', 'password'] as const).find((f) => found[f]);
    if (first) {
      inputs[first].current?.focus();
      return;
    }
    try {
      const res = await login(values).unwrap();
      signedIn(res.user);
      navigate(homeOf(res.user.userType) ?? '/home', { replace: true });
    } catch (err) {
      notify.error(MESSAGES.login.errorTitle, errorMessage(err));
    }
  };

  const field = (name: Field, label: string, input: { type: string; autoComplete: string; autoFocus?: boolean }, extra?: ReactNode) => {
    const id = `login_${name}`;
    const error = errors[name];
    return (
      <div className="dme-login-item">
        <label htmlFor={id}>{label}</label>
        <div className="dme-login-input" data-invalid={error ? 'true' : 'false'}>
          <input
            ref={inputs[name]}
            id={id}
            name={name}
            value={values[name]}
            onChange={change(name)}
            aria-required="true"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}_help` : undefined}
            {...input}
          />
          {extra}
        </div>
        {error && (
          <div id={`${id}_help`} className="dme-login-error" role="alert">
            {error}
          </div>
        )}
      </div>
    );
  };

  return (
    <AuthFrame>
      <style>{CSS}</style>
      <AuthCard title="Sign in" maxWidth={400}>
        <form name="login" noValidate onSubmit={submit}>
          {field('username', 'Username', { type: 'text', autoComplete: 'username', autoFocus: true })}
          {field(
            'password',
            'Password',
            { type: showPassword ? 'text' : 'password', autoComplete: 'current-password' },
            <button type="button" className="dme-login-toggle" aria-pressed={showPassword} aria-controls="login_password" title="Show the password" onClick={() => setShowPassword((s) => !s)}>
              Show
            </button>,
          )}
          <button type="submit" className="dme-login-submit" aria-disabled={isLoading || undefined} aria-busy={isLoading || undefined}>
            {isLoading && <span className="dme-login-spin" aria-hidden="true" />}
            Sign in
          </button>
        </form>
        <p style={{ margin: '16px 0 0' }}>
          <Link to="/forgot-password" style={{ textDecoration: 'underline' }}>Forgot your password?</Link>
        </p>
        <p style={{ margin: '8px 0 0' }}>
          No account yet? <Link to="/register" style={{ textDecoration: 'underline' }}>Register now</Link>
        </p>
      </AuthCard>
    </AuthFrame>
  );
}
