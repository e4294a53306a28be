import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { Button, Card, Col, Row, Typography } from 'antd';
import { DigitalStethoscope, GlassMask, Gloves, HeroIllustration, NonContactThermometer, Sphygmomanometer, Thermometer } from './illustrations';

const TEAL = '#0b6e79';

export const KIT = [
  { name: 'Gloves', Icon: Gloves },
  { name: 'Sphygmomanometer', Icon: Sphygmomanometer },
  { name: 'Digital Stethoscope', Icon: DigitalStethoscope },
  { name: 'Thermometer', Icon: Thermometer },
  { name: 'Non-contact Thermometer', Icon: NonContactThermometer },
  { name: 'Glass Mask', Icon: GlassMask },
] as const;

export const STEPS = ['Order Placement', 'Sorting', 'Packing', 'Shipping'] as const;

/** The navigation turns white once the page is scrolled past this many pixels (SPEC §1). */
export const NAV_SCROLL_THRESHOLD = 80;

export default function LandingPage() {
  const [scrolled, setScrolled] = useState(false);
  const { pathname } = useLocation();

  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > NAV_SCROLL_THRESHOLD);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  useEffect(() => {
    if (pathname === '/about') document.getElementById('about')?.scrollIntoView?.();
  }, [pathname]);

  const navColor = scrolled ? TEAL : '#fff';
  return (
    <div style={{ fontSize: 16, color: '#1f2933' }}>
      <header
        data-testid="landing-nav"
        data-scrolled={scrolled ? 'true' : 'false'}
        style={{
          position: 'fixed',
          top: 0,
          left: 0,
          right: 0,
          zIndex: 10,
          display: 'flex',
          justifyContent: 'space-between',
          alignItems: 'center',
          padding: '14px 32px',
          background: scrolled ? '#ffffff' : 'transparent',
          boxShadow: scrolled ? '0 2px 8px rgba(0,0,0,0.08)' : 'none',
          transition: 'background 0.2s, box-shadow 0.2s',
        }}
      >
        <Link to="/" style={{ fontWeight: 700, fontSize: 20, color: navColor }}>
          DME Supply
        </Link>
        <nav aria-label="Site" style={{ display: 'flex', gap: 24 }}>
          <Link to="/about" style={{ color: navColor, fontWeight: 500 }}>
            About
          </Link>
          <Link to="/login" style={{ color: navColor, fontWeight: 500 }}>
            Sign-In
          </Link>
        </nav>
      </header>

      <main>
        <section
          style={{
            minHeight: 520,
            background: `linear-gradient(135deg, ${TEAL} 0%, #138d90 55%, #5cc3b6 100%)`,
            color: '#fff',
            display: 'flex',
            flexWrap: 'wrap',
            alignItems: 'center',
            justifyContent: 'center',
            columnGap: 48,
            rowGap: 32,
            padding: '120px clamp(16px, 5vw, 32px) 64px',
          }}
        >
          {/* Text first (the LCP element); the illustration sits to its right, or below it on narrow screens. */}
          <div style={{ flex: '1 1 360px', maxWidth: 620, minWidth: 0 }}>
            <Typography.Title style={{ color: '#fff', fontSize: 'clamp(30px, 6vw, 44px)', marginBottom: 16 }}>
              Medical equipment for home care, to rent or to buy
            </Typography.Title>
            <Typography.Paragraph style={{ color: '#e6f4f5', fontSize: 18 }}>
              Wheelchairs, hospital beds, oxygen concentrators and everyday care supplies, delivered to your door and
              picked up when you are done.
            </Typography.Paragraph>
            <Link to="/register">
              <Button size="large" style={{ marginTop: 8 }}>
                Create an account
              </Button>
            </Link>
          </div>
          <div style={{ flex: '1 1 300px', maxWidth: 480, minWidth: 0 }}>
            <HeroIllustration />
          </div>
        </section>

        <section style={{ padding: '64px 32px', maxWidth: 1100, margin: '0 auto' }} aria-labelledby="vision">
          <Row gutter={[32, 32]}>
            <Col xs={24} md={12}>
              <Typography.Title level={2} id="vision">
                Our Vision
              </Typography.Title>
              <Typography.Paragraph>
                A home where every patient can recover with dignity, with the right equipment within reach the day it is
                needed.
              </Typography.Paragraph>
            </Col>
            <Col xs={24} md={12}>
              <Typography.Title level={2}>Our Mission</Typography.Title>
              <Typography.Paragraph>
                To rent and sell safe, clean and reliable durable medical equipment, to deliver and set it up on time, and
                to stand behind every item with service from trained technicians.
              </Typography.Paragraph>
            </Col>
          </Row>
        </section>

        <section style={{ background: '#f3f9f9', padding: '64px 32px' }} aria-labelledby="order-online">
          <div style={{ maxWidth: 1100, margin: '0 auto' }}>
            <Typography.Title level={2} id="order-online">
              Order online
            </Typography.Title>
            <Typography.Paragraph style={{ maxWidth: 720 }}>
              Browse equipment for rent by the day or for sale, put it in your cart and check out in minutes. Follow every
              order from confirmation to delivery, and request a fix or a replacement during your rental.
            </Typography.Paragraph>
            <Row gutter={[16, 16]} style={{ marginTop: 24 }}>
              {STEPS.map((step, i) => (
                <Col xs={24} sm={12} md={6} key={step}>
                  <Card>
                    <Typography.Text type="secondary">Step {i + 1}</Typography.Text>
                    <Typography.Title level={3} style={{ marginTop: 4, fontSize: 20 }}>
                      {step}
                    </Typography.Title>
                    <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
                      Placeholder text: this step will be described here.
                    </Typography.Paragraph>
                  </Card>
                </Col>
              ))}
            </Row>
          </div>
        </section>

        <section style={{ padding: '64px 32px', maxWidth: 1100, margin: '0 auto' }} aria-labelledby="kit">
          <Typography.Title level={2} id="kit">
            Self-protection kit
          </Typography.Title>
          <Typography.Paragraph>Everything a caregiver needs at hand, for sale in our shop.</Typography.Paragraph>
          {/* Three columns at most, so a long name ("Sphygmomanometer") always fits whole: words are never broken. */}
          <Row gutter={[16, 16]}>
            {KIT.map(({ name, Icon }) => (
              <Col xs={24} sm={12} md={8} key={name}>
                <Card style={{ textAlign: 'center', height: '100%' }}>
                  <Icon />
                  <Typography.Paragraph strong style={{ marginTop: 8, marginBottom: 0, overflowWrap: 'normal', wordBreak: 'normal', hyphens: 'manual' }}>
                    {name}
                  </Typography.Paragraph>
                </Card>
              </Col>
            ))}
          </Row>
        </section>

        <section id="about" style={{ background: '#f3f9f9', padding: '64px 32px' }} aria-labelledby="about-title">
          <div style={{ maxWidth: 1100, margin: '0 auto' }}>
            <Typography.Title level={2} id="about-title">
              About the Company
            </Typography.Title>
            <Typography.Paragraph style={{ maxWidth: 760 }}>
              DME Supply rents and sells durable medical equipment to families, clinics and care homes. Rent what you need
              for as long as you need it, or purchase it outright. Our technicians serve the Bay Area: they deliver, set up
              and maintain every item, and pick it up when your rental ends.
            </Typography.Paragraph>
          </div>
        </section>
      </main>

      <footer style={{ padding: '24px 32px', textAlign: 'center', color: '#52606d' }}>© 2023 DME Supply. All rights reserved.</footer>
    </div>
  );
}
